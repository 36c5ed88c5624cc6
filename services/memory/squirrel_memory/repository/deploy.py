"""Where a project is deployed, told by the platform's own config file at the project root."""

from __future__ import annotations

from pathlib import PurePosixPath

#: A platform's config file (at the project root) → the platform's name.
_PLATFORM_FILES = {
    "vercel.json": "Vercel",
    "netlify.toml": "Netlify",
    "fly.toml": "Fly.io",
    "render.yaml": "Render",
    "railway.json": "Railway",
    "railway.toml": "Railway",
    "wrangler.toml": "Cloudflare Workers",
    "wrangler.json": "Cloudflare Workers",
    "wrangler.jsonc": "Cloudflare Workers",
    "firebase.json": "Firebase",
    "amplify.yml": "AWS Amplify",
    "serverless.yml": "the Serverless Framework",
    ".platform.app.yaml": "Platform.sh",
}


def deploy_platform(path: str) -> str | None:
    """The platform a project-relative path configures, when it is a root deploy config."""
    pure = PurePosixPath(path)
    if len(pure.parts) != 1:
        return None
    return _PLATFORM_FILES.get(pure.name.lower())


def deploy_text(platform: str, path: str) -> str:
    """The statement: "The project is hosted and deployed on Fly.io (fly.toml)."."""
    return f"The project is hosted and deployed on {platform} ({path})."
