from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.token import Token
from ...models.token_renew_request import TokenRenewRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    body: TokenRenewRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/tokens/{id}/renew/".format(
            id=quote(str(id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | Token | None:
    if response.status_code == 200:
        response_200 = Token.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 405:
        response_405 = Problem.from_dict(response.json())

        return response_405

    if response.status_code == 406:
        response_406 = Problem.from_dict(response.json())

        return response_406

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | Token]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    body: TokenRenewRequest | Unset = UNSET,
) -> Response[Problem | Token]:
    """Renew a token: a new secret (in this answer only; the old one is refused from now
    on) and a new expiry, ``expires_in_days`` from now (default 30, at most 366; a token
    made by a token: no later than it). A session renews any of its tokens; a club's token
    that may write, itself and those it made.

    Args:
        id (int):
        body (TokenRenewRequest | Unset): A renewal's body: how long the renewed token lasts from
            now.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Token]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    body: TokenRenewRequest | Unset = UNSET,
) -> Problem | Token | None:
    """Renew a token: a new secret (in this answer only; the old one is refused from now
    on) and a new expiry, ``expires_in_days`` from now (default 30, at most 366; a token
    made by a token: no later than it). A session renews any of its tokens; a club's token
    that may write, itself and those it made.

    Args:
        id (int):
        body (TokenRenewRequest | Unset): A renewal's body: how long the renewed token lasts from
            now.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Token
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    body: TokenRenewRequest | Unset = UNSET,
) -> Response[Problem | Token]:
    """Renew a token: a new secret (in this answer only; the old one is refused from now
    on) and a new expiry, ``expires_in_days`` from now (default 30, at most 366; a token
    made by a token: no later than it). A session renews any of its tokens; a club's token
    that may write, itself and those it made.

    Args:
        id (int):
        body (TokenRenewRequest | Unset): A renewal's body: how long the renewed token lasts from
            now.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Token]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    body: TokenRenewRequest | Unset = UNSET,
) -> Problem | Token | None:
    """Renew a token: a new secret (in this answer only; the old one is refused from now
    on) and a new expiry, ``expires_in_days`` from now (default 30, at most 366; a token
    made by a token: no later than it). A session renews any of its tokens; a club's token
    that may write, itself and those it made.

    Args:
        id (int):
        body (TokenRenewRequest | Unset): A renewal's body: how long the renewed token lasts from
            now.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Token
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
