"""Django settings: one module, configured by environment variables.

Development is one variable away (``DEBUG=1``, which ``make run`` sets); everything else has
a default that is safe only in development. With DEBUG off (the default) the deployment must
say ``SECRET_KEY``, ``ALLOWED_HOSTS`` and ``RECEIPT_SIGNING_KEY`` itself. A malformed value
stops start-up with an ``ImproperlyConfigured`` naming the variable and what it should look
like. An empty variable counts as unset.

Secrets may come from files instead (``SECRET_KEY_FILE=/run/secrets/secret_key``, and the
same for ``RECEIPT_SIGNING_KEY``, ``DATABASE_URL`` and ``REDIS_URL``, which may hold
passwords), as Docker secrets and systemd credentials provide them. With DEBUG off the HTTPS
settings are on by default, so ``manage.py check --deploy`` is clean; each is a variable
(README, "Configuration").

The test suite sets nothing here: ``[tool.pytest.ini_options] env`` in pyproject.toml gives
``SECRET_KEY``, ``ALLOWED_HOSTS`` and ``RECEIPT_SIGNING_KEY`` test-only defaults (and turns
the HTTPS redirect off, as the test client speaks plain HTTP), so tests run with DEBUG off,
as production does.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _raw(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


def _bool(name: str, default: bool) -> bool:
    raw = _raw(name)
    if raw is None:
        return default
    if raw.lower() in _TRUE:
        return True
    if raw.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be a boolean (1/0, true/false, yes/no, on/off), not {raw!r}"
    )


def _int(name: str, default: int, *, minimum: int = 0) -> int:
    raw = _raw(name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit()) or int(raw) < minimum:
        raise ImproperlyConfigured(f"{name} must be a whole number >= {minimum}, not {raw!r}")
    return int(raw)


def _list(name: str) -> list[str] | None:
    raw = _raw(name)
    if raw is None:
        return None
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name} must be a comma-separated list, not {raw!r}")
    return items


def _required(name: str, why: str) -> str:
    raw = _secret_file(name)
    if raw is None:
        raise ImproperlyConfigured(f"{name} must be set {why}")
    return raw


def _secret_file(name: str) -> str | None:
    """Return the secret in ``NAME``, or in the file ``NAME_FILE`` names (for mounted secrets)."""
    raw = _raw(name)
    path = _raw(f"{name}_FILE")
    if raw is not None and path is not None:
        raise ImproperlyConfigured(f"set {name} or {name}_FILE, not both")
    if path is None:
        return raw
    try:
        text = Path(path).read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise ImproperlyConfigured(f"{name}_FILE names a file that cannot be read: {exc}") from exc
    if not text:
        raise ImproperlyConfigured(f"{name}_FILE names an empty file")
    return text


def _receipt_key() -> str:
    """Return the receipt signing key: from the environment; in development, a local key file."""
    key = _secret_file("RECEIPT_SIGNING_KEY")
    if key is None and DEBUG:
        from tournaments.receipts import generate_private_key_text

        # Development only: a key of this checkout's own, kept out of git (.gitignore).
        path = BASE_DIR / ".receipt-signing-key"
        if not path.exists():
            path.write_text(generate_private_key_text() + "\n", encoding="utf-8")
            path.chmod(0o600)
        key = path.read_text(encoding="utf-8").strip()
    if key is None:
        raise ImproperlyConfigured(
            "RECEIPT_SIGNING_KEY (or RECEIPT_SIGNING_KEY_FILE) must be set when DEBUG is off: "
            "an Ed25519 private key (python -m tournaments.receipts new-key prints a new one)"
        )
    from tournaments.receipts import ReceiptInvalid, load_private_key

    try:
        load_private_key(key)
    except ReceiptInvalid as exc:
        raise ImproperlyConfigured(f"RECEIPT_SIGNING_KEY: {exc}") from exc
    return key


def _choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    raw = _raw(name)
    if raw is None:
        return default
    if raw.upper() not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, not {raw!r}")
    return raw.upper()


def _matching(name: str, pattern: str, what: str) -> str | None:
    """Return the variable's value (None when unset), refusing one ``pattern`` does not match."""
    raw = _raw(name)
    if raw is not None and not re.fullmatch(pattern, raw):
        raise ImproperlyConfigured(f"{name} must be {what}, not {raw!r}")
    return raw


def _queue(name: str, default: str) -> str:
    what = "a queue name (letters, digits, _ . : -)"
    return _matching(name, r"[A-Za-z0-9_.:-]{1,100}", what) or default


def _header(name: str) -> tuple[str, str] | None:
    """Return SECURE_PROXY_SSL_HEADER for a header name the proxy sets to "https"."""
    what = "the name of the header your proxy sets to 'https' (e.g. X-Forwarded-Proto)"
    raw = _matching(name, r"[A-Za-z0-9-]{1,100}", what)
    if raw is None:
        return None
    return "HTTP_" + raw.upper().replace("-", "_"), "https"


def _scheme(url: str) -> str:
    # Only the scheme goes into error messages: the rest of a URL may hold a password.
    return url.split("://", 1)[0] if "://" in url else "(no scheme)"


def _database(url: str | None) -> dict[str, object]:
    """Return the DATABASES["default"] entry for ``DATABASE_URL`` (None: the SQLite file)."""
    if url is None:
        url = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
    scheme = urlsplit(url).scheme if "://" in url else ""
    if scheme == "sqlite":
        config: dict[str, Any] = environ.Env.db_url_config(url)
        name = config["NAME"]
        if name != ":memory:" and not Path(name).is_absolute():
            config["NAME"] = str(BASE_DIR / name)
        # IMMEDIATE: a write transaction takes the write lock when it begins, so two appends
        # queue up instead of one failing half-way with "database is locked".
        config["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
            **config.get("OPTIONS", {}),
        }
        return config
    if scheme in {"postgres", "postgresql", "pgsql", "psql"}:
        config = environ.Env.db_url_config(url)
        if not config.get("NAME"):
            raise ImproperlyConfigured(
                "DATABASE_URL must name the database: postgres://user:password@host:port/name"
            )
        pooling = _choice("DATABASE_POOLING", "NONE", ("NONE", "PSYCOPG", "PGBOUNCER"))
        options = config.setdefault("OPTIONS", {})
        if pooling == "PSYCOPG":
            # A pool in each process (psycopg_pool, Django's "pool" option): connections are
            # taken per request and given back, so persistent connections are off.
            options["pool"] = {
                "min_size": 1,
                "max_size": _int("DATABASE_POOL_SIZE", 4, minimum=1),
                "timeout": 10,
            }
            config["CONN_MAX_AGE"] = 0
        else:
            config["CONN_MAX_AGE"] = _int("CONN_MAX_AGE", 60)
            config["CONN_HEALTH_CHECKS"] = True
        if pooling == "PGBOUNCER":
            # PgBouncer in transaction mode hands each transaction any server connection:
            # nothing may outlive a transaction on the server. So no server-side prepared
            # statements (psycopg prepares after 5 runs; PgBouncer before 1.21 cannot route
            # them) and no server-side cursors (a named cursor outlives its statement).
            options["prepare_threshold"] = None
            config["DISABLE_SERVER_SIDE_CURSORS"] = True
        else:
            # psycopg's own default, which Django turns off: a query run with server-side
            # binding (only the API's hottest, api/sql.py: Django's own cursors bind on the
            # client and are never prepared) is prepared after 5 runs on a connection.
            options.setdefault("prepare_threshold", 5)
        return config
    raise ImproperlyConfigured(
        "DATABASE_URL must be sqlite:///path/to/file.sqlite3 or "
        f"postgres://user:password@host:port/name, not a {_scheme(url)!r} URL"
    )


def _broker(url: str | None) -> str | None:
    if url is None:
        return None
    if urlsplit(url).scheme not in {"redis", "rediss"} or "://" not in url:
        raise ImproperlyConfigured(
            f"REDIS_URL must be redis://host:port/db or rediss://..., not a {_scheme(url)!r} URL"
        )
    return url


# --- Core -------------------------------------------------------------------------------

DEBUG = _bool("DEBUG", default=False)

if DEBUG:
    SECRET_KEY = (
        _secret_file("SECRET_KEY") or "django-insecure-development-only-key-never-deploy-this"
    )
    ALLOWED_HOSTS = _list("ALLOWED_HOSTS") or ["localhost", "127.0.0.1", "[::1]"]
else:
    SECRET_KEY = _required("SECRET_KEY", "when DEBUG is off (a long random string)")
    _hosts = _list("ALLOWED_HOSTS")
    if _hosts is None:
        raise ImproperlyConfigured(
            "ALLOWED_HOSTS must be set when DEBUG is off (comma-separated host names, "
            "e.g. seep.example.org,www.seep.example.org)"
        )
    ALLOWED_HOSTS = _hosts
CSRF_TRUSTED_ORIGINS = _list("CSRF_TRUSTED_ORIGINS") or []


def _site_url() -> str:
    """``SITE_URL``: the address the players' phones reach this server by (``make club``
    sets the laptop's network address): the team links, their QR codes and invitations are
    built from it, never from the request of the person printing them. Empty: from the
    request (a deployment behind its own host name)."""
    raw = _raw("SITE_URL")
    if raw is None:
        return ""
    parts = urlsplit(raw)
    try:
        port_ok = parts.port is None or 0 < parts.port < 65536
    except ValueError:
        port_ok = False
    if (
        parts.scheme not in {"http", "https"}
        or not parts.hostname
        or not port_ok
        or parts.path not in {"", "/"}
        or parts.query
        or parts.fragment
        or parts.username
    ):
        raise ImproperlyConfigured(
            "SITE_URL must be the address phones reach this server by, scheme, host and "
            f"port only (http://192.168.1.20:8000), not {raw!r}"
        )
    return f"{parts.scheme}://{parts.netloc}"


SITE_URL = _site_url()

# Signed receipts of finished matches (tournaments.receipts): the key lives outside the
# database, so a receipt proves what a log said even to someone who can rewrite the tables.
RECEIPT_SIGNING_KEY = _receipt_key()
#: public keys of earlier signing keys whose receipts are still accepted (after a rotation)
RECEIPT_PUBLIC_KEYS = _list("RECEIPT_PUBLIC_KEYS") or []

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # the account pages' "3 minutes ago" (allauth's sessions list)
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "knox",
    "axes",  # sign-in lock-outs (below, "Signing in")
    "tournaments",
    "scoring",
    "competition",
    "seasons",
    "api",
    "web",
    # accounts people make themselves (docs/deploy.md, "Running a hosted site"): after "web",
    # whose templates (templates/allauth/, account/, mfa/, usersessions/) show them in the
    # site's own style
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "allauth.usersessions",
]

MIDDLEWARE = [
    # First: every later middleware's log lines, and the response, carry the request id.
    "deploy.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Right after SecurityMiddleware (WhiteNoise's docs): static files skip the rest.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before common (Django's docs): the language of each request, from the
    # switch's cookie, else the browser's Accept-Language, else English (docs/languages.md;
    # a club's page falls back on the club's language: web.languages).
    "django.middleware.locale.LocaleMiddleware",
    "web.languages.AskedMiddleware",  # whether it asked: else a club's page is in its language
    "django.middleware.common.CommonMiddleware",
    "api.middleware.BodyLimit",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # django-allauth's sign-in steps (a second factor, a verified address)
    "allauth.account.middleware.AccountMiddleware",
    # a suspended club's pages and API answer that it is suspended (deploy/suspension.py)
    "deploy.suspension.SuspendedClubs",
    "deploy.middleware.PageMessages",  # Django's messages, for the pages only
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Cache-Control for a signed-in caller, and the Content-Security-Policy (below)
    "deploy.middleware.PrivateAnswers",
    "deploy.middleware.ContentSecurityPolicy",
    # Gives a browser that signed in the cookie that gets it past lock-outs (web.lockouts).
    "web.known_browsers.KnownBrowserMiddleware",
    # Last: turns a sign-in refused by a lock-out into the page that says so (below).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "deploy.urls"
WSGI_APPLICATION = "deploy.wsgi.application"
ASGI_APPLICATION = "deploy.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------------

DATABASES = {"default": _database(_secret_file("DATABASE_URL"))}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Signing in -------------------------------------------------------------------------

# django-axes records failed sign-ins in the database; web.lockouts decides from them when a
# sign-in is refused (docs/deploy.md, "Signing in"), so that nobody can lock an account's
# owner out: SIGNIN_FAILURE_LIMIT failures for one account from one address lock that pair,
# SIGNIN_ADDRESS_FAILURE_LIMIT from one address (any accounts) lock the address; a lock
# lasts SIGNIN_LOCKOUT_SECONDS, doubled by each failure counted after it, up to
# SIGNIN_LOCKOUT_MAX_SECONDS; a browser that signed in to the account before
# (web.known_browsers, SIGNIN_KNOWN_BROWSER_DAYS) is refused by neither. Refused before any
# password is hashed. Every form that calls authenticate() with the request is covered:
# /login/ and /admin/login/.
AUTHENTICATION_BACKENDS = [
    "web.signin.SignInBackend",  # the lock-out check: first, so a locked one costs no hash
    "django.contrib.auth.backends.ModelBackend",
    # a user name or an e-mail address, and passkeys (django-allauth); after ModelBackend, so
    # /login/ and the admin check a password as before
    "allauth.account.auth_backends.AuthenticationBackend",
]
AXES_FAILURE_LIMIT = _int("SIGNIN_FAILURE_LIMIT", 10, minimum=1)
SIGNIN_ADDRESS_FAILURE_LIMIT = _int(
    "SIGNIN_ADDRESS_FAILURE_LIMIT", max(50, AXES_FAILURE_LIMIT), minimum=AXES_FAILURE_LIMIT
)
SIGNIN_LOCKOUT_SECONDS = _int("SIGNIN_LOCKOUT_SECONDS", 15 * 60, minimum=1)
SIGNIN_LOCKOUT_MAX_SECONDS = _int(
    "SIGNIN_LOCKOUT_MAX_SECONDS", max(24 * 3600, SIGNIN_LOCKOUT_SECONDS),
    minimum=SIGNIN_LOCKOUT_SECONDS,
)  # fmt: skip
SIGNIN_KNOWN_BROWSER_DAYS = _int("SIGNIN_KNOWN_BROWSER_DAYS", 365, minimum=1)
AXES_HANDLER = "web.lockouts.SignInHandler"  # decides; axes records
AXES_LOCK_OUT_AT_FAILURE = False  # axes' own one-count-for-all lock: web.lockouts instead
# How long failures are remembered (twice the longest lock), read at each check.
AXES_COOLOFF_TIME = "web.lockouts.memory"
# What axes resets and lists: the pair, and the address.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
# A failure while locked out is not counted: guessing on does not stretch a lock (axes'
# default would extend it).
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "web.signin.client_address"  # as the API's rate limits count it
AXES_LOCKOUT_CALLABLE = "web.signin.locked_out"
AXES_DISABLE_ACCESS_LOG = True  # no row for each successful sign-in
AXES_VERBOSE = False

# --- Accounts (django-allauth: docs/deploy.md, "Running a hosted site") -----------------

#: whether anyone may make an account on /accounts/signup/ (an organizer who then names their
#: club): off by default, as a club's own server is closed (its people are invited); a hosted
#: site turns it on. ``make run``'s demo turns it on.
SIGNUP_OPEN = _bool("SIGNUP_OPEN", False)
ACCOUNT_ADAPTER = "web.accounts.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
#: an account made on the sign-up signs in only once its address is verified (a link mailed
#: to it); accounts a director or ``first_run`` made, with no address, sign in as before
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGIN_ON_PASSWORD_RESET = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Seep] "
ACCOUNT_LOGOUT_REDIRECT_URL = "web:home"
ACCOUNT_SIGNUP_REDIRECT_URL = "web:club-new"
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
ACCOUNT_USER_DISPLAY = "web.accounts.user_display"
#: passkeys (WebAuthn) as a second factor, or alone to sign in; codes from an app, and
#: recovery codes for a lost device
MFA_SUPPORTED_TYPES = ["webauthn", "totp", "recovery_codes"]
MFA_PASSKEY_LOGIN_ENABLED = True
#: WebAuthn over plain HTTP (development, the tests' servers on 127.0.0.1); off in production
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = _bool("MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN", DEBUG)
MFA_TOTP_ISSUER = "Seep"
#: the sessions listed on /accounts/sessions/ are recorded when they sign in, not touched by
#: every request after (the pages poll every few seconds: that would be a write each time)
USERSESSIONS_TRACK_ACTIVITY = False

# --- Mail: the sign-up's verification, password resets, address changes ----------------

#: the console under DEBUG (``make run``: mails are printed), SMTP otherwise from EMAIL_HOST,
#: EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD (or _FILE), EMAIL_USE_TLS / EMAIL_USE_SSL
EMAIL_BACKEND = _raw("EMAIL_BACKEND") or (
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend"
)
EMAIL_HOST = _raw("EMAIL_HOST") or "localhost"
EMAIL_PORT = _int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = _raw("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = _secret_file("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = _bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = _bool("EMAIL_USE_SSL", False)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL: set one of them, not both")
EMAIL_TIMEOUT = _int("EMAIL_TIMEOUT", 10, minimum=1)
#: the sender of the site's mails
DEFAULT_FROM_EMAIL = _raw("DEFAULT_FROM_EMAIL") or "Seep <noreply@localhost>"
SERVER_EMAIL = DEFAULT_FROM_EMAIL

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Languages (docs/languages.md) --------------------------------------------------------

#: English when nothing asks for another language: the pages were written in it
LANGUAGE_CODE = "en"
#: the languages the pages are translated into (the catalogs under locale/), each named in
#: itself, as the language switch shows them; Urdu is written right to left
LANGUAGES = [
    ("en", "English"),
    ("hi", "हिन्दी"),
    ("pa", "ਪੰਜਾਬੀ"),
    ("ur", "اردو"),
    ("bn", "বাংলা"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
#: the switch's choice, kept a year (it outranks the browser's Accept-Language)
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"


def _time_zone(name: str) -> str:
    """Return the IANA time zone the variable names (default UTC); refuse an unknown one."""
    import zoneinfo

    raw = _raw(name) or "UTC"
    try:
        zoneinfo.ZoneInfo(raw)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
        raise ImproperlyConfigured(
            f"{name} must be an IANA time zone such as Asia/Kolkata or Europe/London, not {raw!r}"
        ) from exc
    return raw


#: the club's time zone: the web pages show every time in it (stored times stay UTC)
TIME_ZONE = _time_zone("TIME_ZONE")
USE_I18N = True
USE_TZ = True

# --- Static files: collected by `manage.py collectstatic`, served by WhiteNoise -----------

STATIC_URL = "static/"
# A relative STATIC_ROOT is under the repository, like a relative SQLite path.
STATIC_ROOT = BASE_DIR / (_raw("STATIC_ROOT") or "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed names, gzip copies, and a manifest: WhiteNoise serves them cached for a year.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# --- HTTPS (production): on unless DEBUG, each one a variable -----------------------------

# Behind a TLS-terminating proxy, name the header it sets to "https" (X-Forwarded-Proto);
# only then is a request seen as secure. Unset: no header is trusted.
SECURE_PROXY_SSL_HEADER = _header("SECURE_PROXY_SSL_HEADER")
SECURE_SSL_REDIRECT = _bool("SECURE_SSL_REDIRECT", default=not DEBUG)
# Probes come over plain HTTP from inside the network: never redirect them.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
# 60 s to begin with: raise it (to a year, 31536000) once HTTPS is known to work, since a
# browser that has seen the header refuses plain HTTP until it expires.
SECURE_HSTS_SECONDS = _int("SECURE_HSTS_SECONDS", 0 if DEBUG else 60)
SECURE_HSTS_INCLUDE_SUBDOMAINS = _bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = _bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SESSION_COOKIE_SECURE = _bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = _bool("CSRF_COOKIE_SECURE", default=not DEBUG)

# Every page's Content-Security-Policy (deploy.middleware.ContentSecurityPolicy): scripts and
# styles from the site's own files only (no inline script, no style attribute), no plugins,
# no frames, forms posted only here. The API's interactive docs alone may use inline styles
# (Swagger UI's page has a <style> of its own): CONTENT_SECURITY_POLICY_DOCS.
CONTENT_SECURITY_POLICY = _raw("CONTENT_SECURITY_POLICY") or (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
CONTENT_SECURITY_POLICY_DOCS = _raw("CONTENT_SECURITY_POLICY_DOCS") or (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)

# The live parts pushed (docs/deploy.md, "The push process"): with LIVE_PUSH on, the pages'
# live parts listen to the push process's streams (deploy/push.py) and poll only while a
# stream is down; off (the default, and `make run`), they poll. LIVE_PUSH_ORIGIN: where the
# streams are, when not on this host behind the same proxy (`make stack`: the push process's
# own port); the pages may then connect there (connect-src).
LIVE_PUSH = _bool("LIVE_PUSH", False)
#: how often a page's live parts ask whether anything changed when they poll (milliseconds);
#: the test suite asks more often (pyproject.toml), so a browser test waits less for a poll
LIVE_POLL_MS = _int("LIVE_POLL_MS", 3000, minimum=100)
LIVE_PUSH_ORIGIN = (_raw("LIVE_PUSH_ORIGIN") or "").rstrip("/")
#: a push process's database threads, and the processes it renders the live parts in (0: in
#: those threads; always so on SQLite)
PUSH_DB_THREADS = _int("PUSH_DB_THREADS", 4, minimum=1)
PUSH_RENDER_PROCESSES = _int("PUSH_RENDER_PROCESSES", 2, minimum=0)
#: without a push process (LIVE_PUSH off), the API's streams the web process serves itself at
#: once, each holding one of its threads (api/stream_web.py): a few, so the pages keep theirs
API_STREAMS_EMBEDDED = _int("API_STREAMS_EMBEDDED", 4, minimum=1)
#: the streams a push process holds open at once, in all and from one client address (the
#: proxy's forwarded address, as uvicorn reads it): one more is refused (503 or 429, with
#: Retry-After) and /healthz and everyone else's streams go on. A venue whose phones share
#: one public address needs a cap per address above its viewers; the total is also kept
#: below the process's limit of open files (live/server.py)
PUSH_MAX_STREAMS = _int("PUSH_MAX_STREAMS", 10000, minimum=1)
PUSH_MAX_STREAMS_PER_CLIENT = _int("PUSH_MAX_STREAMS_PER_CLIENT", 200, minimum=1)


def _origins(name: str) -> list[str]:
    """``name``: comma-separated origins, each scheme, host and port exactly
    (``http://127.0.0.1:8000``), as a browser sends them in ``Origin``."""
    origins = []
    for raw in _list(name) or []:
        parts = urlsplit(raw)
        try:
            port = parts.port
        except ValueError:
            port = -1
        if (
            parts.scheme not in {"http", "https"}
            or not parts.hostname
            or (port is not None and not 0 < port < 65536)
            or parts.path not in {"", "/"}
            or parts.query
            or parts.fragment
            or parts.username
        ):
            raise ImproperlyConfigured(
                f"{name} must list origins, scheme, host and port only "
                f"(http://127.0.0.1:8000), not {raw!r}"
            )
        netloc = parts.netloc.lower()
        if port == {"http": 80, "https": 443}[parts.scheme]:  # as a browser sends it: none
            netloc = netloc.rsplit(":", 1)[0]
        origins.append(f"{parts.scheme}://{netloc}")
    return origins


#: the origins (scheme, host and port, exactly) whose pages may read the streams with their
#: cookies (CORS): the site's own pages when the streams are on another port or host
#: (``make stack``: the web port's); none by default (pages behind the same proxy need none)
PUSH_CORS_ORIGINS = _origins("PUSH_CORS_ORIGINS")
if LIVE_PUSH_ORIGIN and not _raw("CONTENT_SECURITY_POLICY"):
    CONTENT_SECURITY_POLICY += f"; connect-src 'self' {LIVE_PUSH_ORIGIN}"

# --- The API ----------------------------------------------------------------------------

#: the largest request body accepted (a move or a deal result is a few hundred bytes)
DATA_UPLOAD_MAX_MEMORY_SIZE = _int("API_MAX_BODY_BYTES", 64 * 1024, minimum=1024)
CSRF_FAILURE_VIEW = "api.problems.csrf_failure"
# The web pages' sign-in (web/): where a page that needs an account sends a visitor.
LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:keep"
LOGOUT_REDIRECT_URL = "web:home"
KNOX_TOKEN_MODEL = "api.ApiToken"
# knox's own token table is swapped out for api.ApiToken, but its first migration would make
# it all the same (it names no swappable setting): its migrations are not run.
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {
    "AUTH_HEADER_PREFIX": "Bearer",
    "TOKEN_PREFIX": "seep_",
    "TOKEN_TTL": None,  # each token is made with its own expiry (api.views.Tokens)
}
#: tokens made or renewed an hour, per account and per club (docs/api.md, "Tokens per account")
API_THROTTLE_TOKENS_MADE_DEFAULT = "60/hour"
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # the token first: a bad token is a 401 with WWW-Authenticate: Bearer
        "api.auth.ScopedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],  # views check
    "DEFAULT_PARSER_CLASSES": ["api.parsers.StrictJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.problems.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttling.RateThrottle",  # anon, token or user: one counter a request
    ],
    # How many proxies in front of the web processes append to X-Forwarded-For: the anonymous
    # rate limit counts the address the nearest of them saw. 0: the connection's own address
    # (DRF's default, None, would count the whole header, which a caller can vary at will).
    "NUM_PROXIES": _int("API_NUM_PROXIES", 0),
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON") or "600/min",
        "token": os.environ.get("API_THROTTLE_TOKEN") or "1200/min",
        "user": os.environ.get("API_THROTTLE_USER") or "2400/min",
        # tokens made or renewed (POST /api/v1/tokens/, .../renew/), counted by account and
        # by club apart: a club's evening (its own few tokens and their renewals; its teams'
        # tokens are made elsewhere, one a team) stays far under it; a loop is stopped
        "tokens_made": os.environ.get("API_THROTTLE_TOKENS_MADE")
        or API_THROTTLE_TOKENS_MADE_DEFAULT,
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Seep tournaments API",
    "DESCRIPTION": (
        "Tournaments, teams, stages, rounds, standings, brackets and matches of Seep; each "
        "match an append-only event log. Errors are application/problem+json (RFC 9457)."
    ),
    "VERSION": "1.0.0",
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",  # served by the project: no CDN
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "ENUM_NAME_OVERRIDES": {
        "TeamIndexEnum": "scoring.models.TEAMS",
        # a stage's status, in Stage and StageStarted (the answer of a start)
        "StageStatusEnum": "competition.models.Stage.Status",
    },
    # what each delivery posts: the schema's webhooks section (api/webhook_bodies.py)
    "WEBHOOKS": [
        "api.webhook_bodies.MATCH_COMPLETED",
        "api.webhook_bodies.DEAL_RECORDED",
        "api.webhook_bodies.DEAL_CORRECTED",
        "api.webhook_bodies.DEAL_VOIDED",
        "api.webhook_bodies.MATCH_REOPENED",
        "api.webhook_bodies.MATCH_MADE",
        "api.webhook_bodies.FIXTURE_FILLED",
        "api.webhook_bodies.ROUND_PUBLISHED",
        "api.webhook_bodies.ROUND_UNPUBLISHED",
        "api.webhook_bodies.STANDINGS_CHANGED",
        "api.webhook_bodies.TOURNAMENT_CHANGED",
        "api.webhook_bodies.TEAM_CHANGED",
    ],
}
# --- Quotas per club (tournaments.quotas; a club's own, set by the operator in the admin,
# replace these: docs/deploy.md, "Quotas") ---------------------------------------------------
#: tournaments a club makes in a calendar month of its time zone
QUOTA_TOURNAMENTS_PER_MONTH = _int("QUOTA_TOURNAMENTS_PER_MONTH", 200)
#: teams registered in one tournament
QUOTA_TEAMS_PER_TOURNAMENT = _int("QUOTA_TEAMS_PER_TOURNAMENT", 512)
#: members on a club's roster
QUOTA_MEMBERS = _int("QUOTA_MEMBERS", 5000)
#: webhook subscriptions of all a club's tournaments
QUOTA_WEBHOOKS = _int("QUOTA_WEBHOOKS", 50)
#: unexpired API tokens for a club or its tournaments (teams' tokens not counted)
QUOTA_TOKENS = _int("QUOTA_TOKENS", 50)
#: API requests a minute of all a club's tokens together (teams' tokens included)
QUOTA_API_RATE = _int("QUOTA_API_RATE", 6000)
#: live streams of a club's tournaments open at once, in each push process
QUOTA_PUSH_STREAMS = _int("QUOTA_PUSH_STREAMS", 2000)

#: the most tokens one account holds (unexpired): one more is refused until one is revoked
API_TOKENS_PER_ACCOUNT = _int("API_TOKENS_PER_ACCOUNT", 10, minimum=1)
#: the longest GET /api/v1/matches/{id}/?wait_for_seq=N waits for the result to fold event N
API_WAIT_FOR_SEQ_SECONDS = _int("API_WAIT_FOR_SEQ_SECONDS", 5, minimum=0)
#: webhooks: the deadline of one whole attempt (resolve, connect, send, read), how many
#: attempts, the first backoff (doubling)
WEBHOOK_TIMEOUT_SECONDS = _int("WEBHOOK_TIMEOUT_SECONDS", 5, minimum=1)
WEBHOOK_MAX_ATTEMPTS = _int("WEBHOOK_MAX_ATTEMPTS", 8, minimum=1)
WEBHOOK_BACKOFF_SECONDS = _int("WEBHOOK_BACKOFF_SECONDS", 2, minimum=1)
#: how long past due a pending delivery waits for its own task before the catch-up sends it
#: again (a task lost with its worker or its broker message)
WEBHOOK_CATCH_UP_GRACE_SECONDS = _int("WEBHOOK_CATCH_UP_GRACE_SECONDS", 30, minimum=1)
#: the most subscriptions a tournament holds, and deliveries of one tournament sent at once
#: (the others wait their turn, pending)
WEBHOOK_MAX_PER_TOURNAMENT = _int("WEBHOOK_MAX_PER_TOURNAMENT", 10, minimum=1)
WEBHOOK_MAX_IN_FLIGHT = _int("WEBHOOK_MAX_IN_FLIGHT", 4, minimum=1)
#: let webhooks point at loopback and private addresses: an explicit switch for development
#: and tests, off by default (DEBUG included)
WEBHOOKS_ALLOW_PRIVATE_NETWORKS = _bool("WEBHOOKS_ALLOW_PRIVATE_NETWORKS", False)
#: without a broker (no REDIS_URL: tasks run in-process), deliveries are sent by a thread of
#: the process after the response, and tried again with the same backoff (api/background.py);
#: off, each first attempt runs in the request's on-commit and nothing retries it (the suite)
WEBHOOKS_IN_BACKGROUND = _bool("WEBHOOKS_IN_BACKGROUND", True)

# --- Celery (read by deploy/celery.py through the CELERY_ namespace) ---------------------

REDIS_URL = _broker(_secret_file("REDIS_URL"))

# The cache counts API rate limits: shared by every process through Redis when there is one.
CACHES = {
    "default": (
        # Fails open (deploy/cache.py): with Redis down the API serves without rate limits.
        {"BACKEND": "deploy.cache.FailOpenRedisCache", "LOCATION": REDIS_URL,
         "KEY_PREFIX": "seep-cache",
         "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    ),
    # The live part's repeated fragments ({% cache %} in web/_live.html: a table of the round,
    # a stage's standings), kept in each process by the values they show: a deal renders its
    # table again, not the 255 others. In memory: a fragment is a microsecond away, where
    # Redis is a round trip per table.
    "template_fragments": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                           "LOCATION": "template-fragments", "OPTIONS": {"MAX_ENTRIES": 4096}},
}  # fmt: skip

if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    if urlsplit(REDIS_URL).scheme == "redis":
        # kombu's Redis transport, keeping the client it sends with (deploy/broker.py). Not
        # for rediss://: kombu turns TLS on by the transport's name, so that keeps kombu's.
        CELERY_BROKER_TRANSPORT = "deploy.broker:Transport"
    CELERY_TASK_ALWAYS_EAGER = False
else:
    # No broker configured (the embedded default): tasks run in-process when sent, and
    # their exceptions reach the caller instead of vanishing in a log.
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
# Tasks write projections to the database; nobody waits for a return value.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
# A task is acknowledged only once it has finished, and re-queued if its worker dies, so a
# crash costs a repeat (tasks are idempotent), never a lost projection update.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_TASK_SOFT_TIME_LIMIT = 60
CELERY_TASK_TIME_LIMIT = 90
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker that lost the broker tries again every second (deploy/celery.py), not after
# kombu's growing waits: what the web processes held during an outage goes out at once.
CELERY_WORKER_CONSUMER = "deploy.celery:Consumer"
# Celery's Django fixup closes every database connection before and after each task unless
# told to reuse them: a new PostgreSQL session for every projection (9 ms a task against 1
# on a kept one). Kept here, they are managed as Django manages a request's (deploy/celery.py,
# ``_before_task`` and ``_after_task``): closed after a task that failed, else by
# CONN_MAX_AGE, and checked before a task's first query (CONN_HEALTH_CHECKS; with
# DATABASE_POOLING=PSYCOPG the pool process's pool is kept instead, and a connection the
# server dropped fails its task once, which is retried). Celery still closes them every
# thousand tasks.
CELERY_DB_REUSE_MAX = 1000
# Redis re-delivers a message not acknowledged within the visibility timeout. With late acks
# it must exceed the longest task (the 90 s hard limit) by a margin, or a slow task would
# run twice; it is also how long a task of a killed worker waits before it is redelivered.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 600}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # workers log through LOGGING below, to stdout
# The queue tasks are sent to and workers read (unless started with -Q). Deployments, or
# test runs, sharing one Redis server each take their own.
CELERY_TASK_DEFAULT_QUEUE = _queue("CELERY_QUEUE", "celery")
# Webhook deliveries wait on other people's servers: they have a queue of their own, read by
# workers of their own (deploy/Procfile's ``webhooks``), so projections never wait behind them.
WEBHOOK_QUEUE = _queue("WEBHOOK_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-webhooks")
CELERY_TASK_ROUTES = {
    "api.tasks.deliver": {"queue": WEBHOOK_QUEUE},
    "api.tasks.catch_up": {"queue": WEBHOOK_QUEUE},
    "api.tasks.consume_happenings": {"queue": WEBHOOK_QUEUE},
}
# The scoring catch-up: re-sends the projection of every match that lags its log, so a lost
# message (Redis restarted, worker killed) costs at most about this delay. Run one beat.
SCORING_CATCH_UP_SECONDS = _int("SCORING_CATCH_UP_SECONDS", 15, minimum=1)
# How long an append's projection waits before it starts, so that the appends to the same
# match meanwhile share its message and its run (scoring.tasks.schedule_projection); 0: at
# once. Standings and results follow the log this much later.
SCORING_COALESCE_MS = _int("SCORING_COALESCE_MS", 50)
# Exactly one beat sends: each beat takes a lock in Redis (deploy/beat.py) and a second one
# waits as a standby, taking over when the first one's lock lapses (BEAT_LOCK_SECONDS).
CELERY_BEAT_SCHEDULER = "deploy.beat:LockedScheduler"
BEAT_LOCK_SECONDS = _int("BEAT_LOCK_SECONDS", 30, minimum=3)
# Each worker writes a heartbeat to Redis this often (deploy/heartbeat.py); /readyz wants
# one younger than three periods.
WORKER_HEARTBEAT_SECONDS = _int("WORKER_HEARTBEAT_SECONDS", 5, minimum=1)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "scoring-catch-up": {
        "task": "scoring.tasks.catch_up",
        "schedule": float(SCORING_CATCH_UP_SECONDS),
        # A beat that fires while no worker is up must not leave a pile of catch-ups.
        "options": {"expires": SCORING_CATCH_UP_SECONDS},
    },
    "webhooks-catch-up": {
        "task": "api.tasks.catch_up",
        "schedule": float(SCORING_CATCH_UP_SECONDS),
        "options": {"expires": SCORING_CATCH_UP_SECONDS},
    },
    # Fixture results whose completion message was lost, and standings that lag.
    "competition-catch-up": {
        "task": "competition.tasks.catch_up",
        "schedule": float(SCORING_CATCH_UP_SECONDS),
        "options": {"expires": SCORING_CATCH_UP_SECONDS},
    },
    # Members' ratings that lag their club's results (a lost message), checked once a minute.
    "seasons-catch-up": {
        "task": "seasons.tasks.catch_up",
        "schedule": 60.0,
        "options": {"expires": 60},
    },
}

# --- Logging: everything to stdout, for the process manager to collect -------------------

LOG_LEVEL = _choice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"))
# json: one JSON object per line (time, level, logger, message, request_id, task_id, ...),
# for a log collector; plain: one readable line, for a terminal. JSON unless DEBUG is on.
LOG_FORMAT = _choice("LOG_FORMAT", "PLAIN" if DEBUG else "JSON", ("JSON", "PLAIN")).lower()

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # No line carries a team link's or an invitation's key (deploy/logs.py, KeyRedaction):
    # every handler has the filter, and both formatters redact what they write.
    "filters": {
        "context": {"()": "deploy.logs.ContextFilter"},
        "keys": {"()": "deploy.logs.KeyRedaction"},
    },
    "formatters": {
        "json": {"()": "deploy.logs.JsonFormatter"},
        "plain": {
            "()": "deploy.logs.PlainFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(process)d [%(request_id)s] %(message)s",
        },
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": LOG_FORMAT,
            "filters": ["keys", "context"],
        },
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stdout"], "level": LOG_LEVEL, "propagate": False},
    },
}
