from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.standings import Standings
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    round_: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["round"] = round_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/stages/{id}/standings/".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Problem | Standings | None:
    if response.status_code == 200:
        response_200 = Standings.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

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
) -> Response[Any | Problem | Standings]:
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
    round_: int | Unset = UNSET,
) -> Response[Any | Problem | Standings]:
    """A stage's standings: one query finds the stage, the round, its checkpoint and its
    tournament's teams' fingerprint (together the ETag), and the body is the one rendered
    before from the same inputs when there is one: this process's (no round trip at all), or
    another process's, from the cache (one). Else two more queries render it, and it is kept
    for the next reader, here and in the cache.

    What a table is made of keys it: the checkpoint's digest and the time it was last written
    (a rebuild rewrites the rows under the same digest), and a digest of the tournament's
    team ids and names (the names are in the rows, not in the checkpoint's digest), read in
    the same query, so a rename however made is seen by the next read. With no checkpoint
    (nothing played yet) every read renders.

    Args:
        id (int):
        round_ (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | Standings]
    """

    kwargs = _get_kwargs(
        id=id,
        round_=round_,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    round_: int | Unset = UNSET,
) -> Any | Problem | Standings | None:
    """A stage's standings: one query finds the stage, the round, its checkpoint and its
    tournament's teams' fingerprint (together the ETag), and the body is the one rendered
    before from the same inputs when there is one: this process's (no round trip at all), or
    another process's, from the cache (one). Else two more queries render it, and it is kept
    for the next reader, here and in the cache.

    What a table is made of keys it: the checkpoint's digest and the time it was last written
    (a rebuild rewrites the rows under the same digest), and a digest of the tournament's
    team ids and names (the names are in the rows, not in the checkpoint's digest), read in
    the same query, so a rename however made is seen by the next read. With no checkpoint
    (nothing played yet) every read renders.

    Args:
        id (int):
        round_ (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | Standings
    """

    return sync_detailed(
        id=id,
        client=client,
        round_=round_,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    round_: int | Unset = UNSET,
) -> Response[Any | Problem | Standings]:
    """A stage's standings: one query finds the stage, the round, its checkpoint and its
    tournament's teams' fingerprint (together the ETag), and the body is the one rendered
    before from the same inputs when there is one: this process's (no round trip at all), or
    another process's, from the cache (one). Else two more queries render it, and it is kept
    for the next reader, here and in the cache.

    What a table is made of keys it: the checkpoint's digest and the time it was last written
    (a rebuild rewrites the rows under the same digest), and a digest of the tournament's
    team ids and names (the names are in the rows, not in the checkpoint's digest), read in
    the same query, so a rename however made is seen by the next read. With no checkpoint
    (nothing played yet) every read renders.

    Args:
        id (int):
        round_ (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | Standings]
    """

    kwargs = _get_kwargs(
        id=id,
        round_=round_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    round_: int | Unset = UNSET,
) -> Any | Problem | Standings | None:
    """A stage's standings: one query finds the stage, the round, its checkpoint and its
    tournament's teams' fingerprint (together the ETag), and the body is the one rendered
    before from the same inputs when there is one: this process's (no round trip at all), or
    another process's, from the cache (one). Else two more queries render it, and it is kept
    for the next reader, here and in the cache.

    What a table is made of keys it: the checkpoint's digest and the time it was last written
    (a rebuild rewrites the rows under the same digest), and a digest of the tournament's
    team ids and names (the names are in the rows, not in the checkpoint's digest), read in
    the same query, so a rename however made is seen by the next read. With no checkpoint
    (nothing played yet) every read renders.

    Args:
        id (int):
        round_ (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | Standings
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            round_=round_,
        )
    ).parsed
