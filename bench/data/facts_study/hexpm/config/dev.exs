import Config

config :hexpm, HexpmWeb.Endpoint,
  http: [port: 4000],
  code_reloader: true,
  cache_static_lookup: false,
  check_origin: false,
  pubsub_server: Hexpm.PubSub,
  watchers: [
    esbuild: {Esbuild, :install_and_run, [:hexpm, ~w(--sourcemap=inline --watch)]},
    tailwind: {Tailwind, :install_and_run, [:default, ~w(--watch)]}
  ]

config :phoenix, :stacktrace_depth, 20

config :phoenix, :plug_init_mode, :runtime

config :hexpm, Hexpm.RepoBase,
  username: "postgres",
  password: "postgres",
  database: System.get_env("HEXPM_DEV_DATABASE", "hexpm_dev"),
  hostname: "localhost",
  pool_size: 5

config :hexpm, Hexpm.Emails.Mailer, adapter: Swoosh.Adapters.Local

config :hexpm, Oban, plugins: []
