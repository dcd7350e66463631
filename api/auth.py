"""Integration tokens: knox stores them hashed; each carries its scope (a tournament or a club)
and its write bit.

``Authorization: Bearer <token>``. A token that is unknown, expired or malformed is refused
(401) rather than treated as anonymous, so an integration notices at once.

At most one query a request: knox finds the candidates by the token's key (its first
characters) and compares digests in constant time, as here; but before that it loads every
token of the token's user to delete the expired ones, on every request. Here only the
presented token's expiry is checked (an expired one is deleted and refused, as knox does);
the user's other expired tokens are swept when they manage their tokens
(``api.views.Tokens``).

With the cache in Redis, a process also remembers the tokens it verified (their row and
their user's, by digest) for up to ``KEEP_SECONDS``, each with the *mark* it read from Redis
before the query: a random string that every change of a token or a user (saved or deleted,
``forget_tokens``) replaces once the change commits. A remembered token is trusted only if
the mark is still the one read with it, and that mark is read in the round trip that counts
the request for the rate limit anyway (``deploy.cache.FailOpenRedisCache.count_and_mark``;
the throttle takes that count): so a request with a known token asks the database nothing,
a token revoked, or a user deactivated, in any process is refused by every process from the
next request after the commit, and its expiry is checked on every request. While Redis
cannot be reached every token is verified in the database. What goes around the model's
signals (a queryset's ``update()``, SQL by hand) is noticed within ``KEEP_SECONDS``; so is a
renewal of the mark lost to a Redis that was unreachable just then (it is logged).
"""

from __future__ import annotations

import binascii
import functools
import logging
import secrets
import time
from hmac import compare_digest
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS, knox_settings
from knox.signals import token_expired
from rest_framework import exceptions
from rest_framework.request import Request

from . import sql as queries
from .throttling import COUNTED, RateThrottle, token_bucket

log = logging.getLogger(__name__)


class ScopedTokenAuthentication(TokenAuthentication):
    """knox's token authentication, safe on any input (a header that is not even UTF-8), and
    remembering the tokens it verified lately (the module's doc)."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        self._request = request  # an authenticator is made for each request (DRF's Request)
        try:
            found: tuple[Any, Any] | None = super().authenticate(request)  # type: ignore[no-untyped-call]
        except UnicodeError as exc:
            raise exceptions.AuthenticationFailed("Invalid token.") from exc
        if found is not None and getattr(found[1], "team_link_id", None) is not None:
            # A team's token is no one's account: it reads as the public does and acts only
            # as its team (api.access.team_actor), never with the powers of who made it.
            return AnonymousUser(), found[1]
        return found

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        if len(token) > 200:
            raise exceptions.AuthenticationFailed("Invalid token.")
        text = token.decode("utf-8")
        try:
            digest = hash_token(text)
        except (TypeError, binascii.Error) as exc:
            raise exceptions.AuthenticationFailed("Invalid token.") from exc
        mark = None  # the mark read before the database, if any: kept with what it finds
        if getattr(cache, "count_and_mark", None) is not None:  # Redis: marks to read
            recent, mark = self._recent(digest)
            if recent is not None:
                return recent
            if mark is _UNREAD:
                mark = cache.mark(MARK, _new_mark())  # type: ignore[attr-defined]
        for values in _candidates(text[: CONSTANTS.TOKEN_KEY_LENGTH]):
            auth_token = _token(values)
            if not compare_digest(digest, auth_token.digest):
                continue
            if auth_token.expiry is not None and auth_token.expiry < timezone.now():
                username = auth_token.user.get_username()
                auth_token.delete()
                token_expired.send(sender=type(self), username=username, source="auth_token")
                break
            if knox_settings.AUTO_REFRESH and auth_token.expiry:
                self.renew_token(auth_token)
            found: tuple[Any, Any] = self.validate_user(auth_token)  # type: ignore[no-untyped-call]
            if mark is not None and not knox_settings.AUTO_REFRESH:
                if len(_verified) >= KEEP_AT_MOST:
                    _verified.clear()
                _verified[digest] = (values, mark, time.monotonic())
            return found
        raise exceptions.AuthenticationFailed("Invalid token.")

    def _recent(self, digest: str) -> tuple[tuple[Any, Any] | None, Any]:
        """The user and token verified lately under this digest, if the mark read with them
        still stands and they are not too old (else None: verify in the database); and the
        mark as read now (None: Redis is down), or ``_UNREAD`` when it was not read."""
        kept = _verified.get(digest)
        if kept is None:
            return None, _UNREAD
        values, mark, at = kept
        auth_token = _token(values)
        if time.monotonic() - at > KEEP_SECONDS or (
            auth_token.expiry is not None and auth_token.expiry < timezone.now()
        ):
            _verified.pop(digest, None)
            return None, _UNREAD
        request = getattr(self, "_request", None)
        window = RateThrottle().window("token", token_bucket(auth_token))
        if window is None:  # no rate for tokens: the mark alone
            seen = cache.mark(MARK, _new_mark())  # type: ignore[attr-defined]
        else:
            answer = cache.count_and_mark(  # type: ignore[attr-defined]
                window[0], window[2], MARK, _new_mark()
            )
            seen = None if answer is None else answer[1]
            if answer is not None and request is not None:  # the throttle takes this count
                request.__dict__[COUNTED] = (window[0], answer[0])
        if seen != mark:  # renewed (a token or a user changed), or Redis down: verify
            _verified.pop(digest, None)
            return None, seen
        return self.validate_user(auth_token), mark  # type: ignore[no-untyped-call]


#: tokens verified in the database lately, by digest: their row, the mark read before, when
_verified: dict[str, tuple[list[Any], str, float]] = {}
#: the mark's key in the cache, renewed whenever a token or a user changes or goes
MARK = "api-token-mark"
#: how long a token verified once is trusted on its mark alone (the module's doc)
KEEP_SECONDS = 30.0
KEEP_AT_MOST = 10_000


#: ``_recent`` did not read the mark
_UNREAD = object()


def _new_mark() -> str:
    return secrets.token_hex(8)


def forget_verified() -> None:
    """Trust no token this process remembers (the other processes' memories untouched)."""
    _verified.clear()


def forget_tokens() -> None:
    """Trust no remembered token: here at once, in every process once the change commits
    (the mark renewed). Connected to every change of a token or a user (api.apps)."""
    forget_verified()
    renew = getattr(cache, "renew_mark", None)
    if renew is not None:
        transaction.on_commit(lambda: _renew(renew), robust=True)


def _renew(renew: Any) -> None:
    _verified.clear()  # what a request verified while the change was being committed too
    if not renew(MARK, _new_mark()):
        log.warning(
            "the token mark could not be renewed: tokens stay trusted up to %ss", KEEP_SECONDS
        )


def _candidates(key: str) -> list[list[Any]]:
    """The rows of the tokens with this key, each with its user's: one query, written out.

    The same query through the ORM (``filter(token_key=...).select_related("user")``) takes
    four times the CPU to build as to run, on every request that carries a token. The values
    are converted as the ORM converts them (the backend's converters); ``_token`` makes the
    models of a row, as ``from_db`` does.
    """
    from django.db import connection

    sql, converters = _candidates_query(connection.vendor)
    rows = queries.rows(sql, [key])  # planned once per connection on PostgreSQL
    found = []
    for row in rows:
        values = list(row)
        for i, (functions, expression) in converters.items():
            for convert in functions:
                values[i] = convert(values[i], expression, connection)
        found.append(values)
    return found


def _token(values: list[Any]) -> Any:
    """The token of a row of ``_candidates``, its user attached, and the club of its
    tournament (``club_of_tournament``: the club its requests count for, in the same query):
    new models each time."""
    from django.db import connection

    token_model, tokens, user_model, users = _row_models()
    token = token_model.from_db(connection.alias, tokens, values[: len(tokens)])
    token.user = user_model.from_db(connection.alias, users, values[len(tokens) : -1])
    token.club_of_tournament = values[-1]
    return token


@functools.cache
def _row_models() -> tuple[Any, list[str], Any, list[str]]:
    """The token model and its fields' attribute names, then the user model and its: the
    columns of a ``_candidates`` row, in order (as ``_candidates_query`` selects them), before
    its last, the club of the token's tournament."""
    from django.contrib.auth import get_user_model

    from .models import ApiToken

    user_model = get_user_model()
    return (
        ApiToken,
        [f.attname for f in ApiToken._meta.concrete_fields],
        user_model,
        [f.attname for f in user_model._meta.concrete_fields],
    )


@functools.cache
def _candidates_query(vendor: str) -> tuple[str, dict[int, tuple[list[Any], Any]]]:
    """The query of ``_candidates`` and the converters of its columns, by position."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from .models import ApiToken

    quote = connection.ops.quote_name
    token_meta, user_meta = ApiToken._meta, get_user_model()._meta
    fields = [("t", f) for f in token_meta.concrete_fields]
    fields += [("u", f) for f in user_meta.concrete_fields]
    converters = {}
    for i, (_, field) in enumerate(fields):
        column = field.get_col(field.model._meta.db_table)
        functions = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if functions:
            converters[i] = (functions, column)
    columns = ", ".join(f"{alias}.{quote(str(f.column))}" for alias, f in fields)
    user_fk = quote(str(token_meta.get_field("user").column))
    key = quote(str(token_meta.get_field("token_key").column))
    # the club of the token's tournament (its requests count for that club: api.throttling)
    from tournaments.models import Tournament

    tournament_meta = Tournament._meta
    tournament_fk = quote(str(token_meta.get_field("tournament").column))
    club = quote(str(tournament_meta.get_field("club").column))
    sql = (
        f"SELECT {columns}, tt.{club} FROM {quote(token_meta.db_table)} t "
        f"JOIN {quote(user_meta.db_table)} u ON u.{quote(str(user_meta.pk.column))} = t.{user_fk} "
        f"LEFT JOIN {quote(tournament_meta.db_table)} tt "
        f"ON tt.{quote(str(tournament_meta.pk.column))} = t.{tournament_fk} "
        f"WHERE t.{key} = %s"
    )
    return sql, converters


try:  # the schema names the token scheme (drf-spectacular reads this extension)
    from drf_spectacular.extensions import OpenApiAuthenticationExtension

    class ScopedTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
        target_class = "api.auth.ScopedTokenAuthentication"
        name = "tokenAuth"

        def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
            return {
                "type": "http",
                "scheme": "bearer",
                "description": "An integration token (POST /api/v1/tokens/, or manage.py "
                "first_run), scoped to one tournament or one club, to read or to read and write.",
            }

except ImportError:  # pragma: no cover - drf-spectacular is a dependency
    pass
