"""Integration tokens: knox stores them hashed; each carries its tournament scope and write bit.

``Authorization: Bearer <token>``. A token that is unknown, expired or malformed is refused
(401) rather than treated as anonymous, so an integration notices at once.

One query a request: knox finds the candidates by the token's key (its first characters) and
compares digests in constant time, as here; but before that it loads every token of the
token's user to delete the expired ones, on every request. Here only the presented token's
expiry is checked (an expired one is deleted and refused, as knox does); the user's other
expired tokens are swept when they manage their tokens (``api.views.Tokens``).
"""

from __future__ import annotations

import binascii
import functools
from hmac import compare_digest
from typing import Any

from django.utils import timezone
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS, knox_settings
from knox.signals import token_expired
from rest_framework import exceptions
from rest_framework.request import Request

from . import sql as queries


class ScopedTokenAuthentication(TokenAuthentication):
    """knox's token authentication, safe on any input (a header that is not even UTF-8)."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        try:
            return super().authenticate(request)  # type: ignore[no-untyped-call,no-any-return]
        except UnicodeError as exc:
            raise exceptions.AuthenticationFailed("Invalid token.") from exc

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        if len(token) > 200:
            raise exceptions.AuthenticationFailed("Invalid token.")
        text = token.decode("utf-8")
        try:
            digest = hash_token(text)
        except (TypeError, binascii.Error) as exc:
            raise exceptions.AuthenticationFailed("Invalid token.") from exc
        for auth_token in _candidates(text[: CONSTANTS.TOKEN_KEY_LENGTH]):
            if not compare_digest(digest, auth_token.digest):
                continue
            if auth_token.expiry is not None and auth_token.expiry < timezone.now():
                username = auth_token.user.get_username()
                auth_token.delete()
                token_expired.send(sender=type(self), username=username, source="auth_token")
                break
            if knox_settings.AUTO_REFRESH and auth_token.expiry:
                self.renew_token(auth_token)
            return self.validate_user(auth_token)  # type: ignore[no-untyped-call,no-any-return]
        raise exceptions.AuthenticationFailed("Invalid token.")


def _candidates(key: str) -> list[Any]:
    """The tokens with this key, each with its user: one query, written out.

    The same query through the ORM (``filter(token_key=...).select_related("user")``) takes
    four times the CPU to build as to run, on every request that carries a token. The rows
    are made into models as the ORM makes them: the backend's converters, then ``from_db``.
    """
    from django.contrib.auth import get_user_model
    from django.db import connection

    from .models import ApiToken

    sql, converters = _candidates_query(connection.vendor)
    rows = queries.rows(sql, [key])  # planned once per connection on PostgreSQL
    user_model = get_user_model()
    tokens = [f.attname for f in ApiToken._meta.concrete_fields]
    users = [f.attname for f in user_model._meta.concrete_fields]
    found = []
    for row in rows:
        values = list(row)
        for i, (functions, expression) in converters.items():
            for convert in functions:
                values[i] = convert(values[i], expression, connection)
        token = ApiToken.from_db(connection.alias, tokens, values[: len(tokens)])
        token.user = user_model.from_db(connection.alias, users, values[len(tokens) :])
        found.append(token)
    return found


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
    sql = (
        f"SELECT {columns} FROM {quote(token_meta.db_table)} t "
        f"JOIN {quote(user_meta.db_table)} u ON u.{quote(str(user_meta.pk.column))} = t.{user_fk} "
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
                "description": "An integration token (POST /api/v1/tokens/), scoped to one "
                "tournament, to read or to read and write.",
            }

except ImportError:  # pragma: no cover - drf-spectacular is a dependency
    pass
