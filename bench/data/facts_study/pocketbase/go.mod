module github.com/pocketbase/pocketbase

go 1.23.0

require (
	github.com/disintegration/imaging v1.6.2
	github.com/domodwyer/mailyak/v3 v3.6.2
	github.com/dop251/goja v0.0.0-20250309171923-bcd7cc6bf64c
	github.com/fatih/color v1.18.0
	github.com/fsnotify/fsnotify v1.7.0
	github.com/gabriel-vasile/mimetype v1.4.9
	github.com/go-ozzo/ozzo-validation/v4 v4.3.0
	github.com/golang-jwt/jwt/v5 v5.2.2
	github.com/pocketbase/dbx v1.11.0
	github.com/spf13/cast v1.8.0
	github.com/spf13/cobra v1.9.1
	golang.org/x/crypto v0.38.0
	golang.org/x/net v0.40.0
	golang.org/x/oauth2 v0.30.0
	golang.org/x/sync v0.14.0
	modernc.org/sqlite v1.37.1
)

require (
	github.com/dustin/go-humanize v1.0.1 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	golang.org/x/sys v0.33.0 // indirect
	modernc.org/libc v1.65.7 // indirect
)
