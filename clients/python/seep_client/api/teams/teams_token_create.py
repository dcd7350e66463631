from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.team_token_made import TeamTokenMade
from ...models.team_token_request_request import TeamTokenRequestRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    body: TeamTokenRequestRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/teams/{id}/token/".format(
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
) -> Problem | TeamTokenMade | None:
    if response.status_code == 201:
        response_201 = TeamTokenMade.from_dict(response.json())

        return response_201

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
) -> Response[Problem | TeamTokenMade]:
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
    body: TeamTokenRequestRequest | Unset = UNSET,
) -> Response[Problem | TeamTokenMade]:
    """A team's token (a director): through the team's link, it enters and answers the
    team's results, and plays its two seats' moves in the team's digital matches, and
    nothing else (docs/links.md). The body's fields are ``expires_in_days`` (1 to 30,
    default 1) and ``player`` (``"first"`` or ``"second"``: a token for one player's bot,
    which sees and plays only that player's seat); any other is refused (400 ``invalid``).
    A new token of the team (for the same player, if bound), or a new link, ends the one
    before.

    Args:
        id (int):
        body (TeamTokenRequestRequest | Unset): The body of ``POST /teams/{id}/token/``: how long
            the token lasts, and the player it
            is bound to, if any (nothing else).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TeamTokenMade]
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
    body: TeamTokenRequestRequest | Unset = UNSET,
) -> Problem | TeamTokenMade | None:
    """A team's token (a director): through the team's link, it enters and answers the
    team's results, and plays its two seats' moves in the team's digital matches, and
    nothing else (docs/links.md). The body's fields are ``expires_in_days`` (1 to 30,
    default 1) and ``player`` (``"first"`` or ``"second"``: a token for one player's bot,
    which sees and plays only that player's seat); any other is refused (400 ``invalid``).
    A new token of the team (for the same player, if bound), or a new link, ends the one
    before.

    Args:
        id (int):
        body (TeamTokenRequestRequest | Unset): The body of ``POST /teams/{id}/token/``: how long
            the token lasts, and the player it
            is bound to, if any (nothing else).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TeamTokenMade
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
    body: TeamTokenRequestRequest | Unset = UNSET,
) -> Response[Problem | TeamTokenMade]:
    """A team's token (a director): through the team's link, it enters and answers the
    team's results, and plays its two seats' moves in the team's digital matches, and
    nothing else (docs/links.md). The body's fields are ``expires_in_days`` (1 to 30,
    default 1) and ``player`` (``"first"`` or ``"second"``: a token for one player's bot,
    which sees and plays only that player's seat); any other is refused (400 ``invalid``).
    A new token of the team (for the same player, if bound), or a new link, ends the one
    before.

    Args:
        id (int):
        body (TeamTokenRequestRequest | Unset): The body of ``POST /teams/{id}/token/``: how long
            the token lasts, and the player it
            is bound to, if any (nothing else).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TeamTokenMade]
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
    body: TeamTokenRequestRequest | Unset = UNSET,
) -> Problem | TeamTokenMade | None:
    """A team's token (a director): through the team's link, it enters and answers the
    team's results, and plays its two seats' moves in the team's digital matches, and
    nothing else (docs/links.md). The body's fields are ``expires_in_days`` (1 to 30,
    default 1) and ``player`` (``"first"`` or ``"second"``: a token for one player's bot,
    which sees and plays only that player's seat); any other is refused (400 ``invalid``).
    A new token of the team (for the same player, if bound), or a new link, ends the one
    before.

    Args:
        id (int):
        body (TeamTokenRequestRequest | Unset): The body of ``POST /teams/{id}/token/``: how long
            the token lasts, and the player it
            is bound to, if any (nothing else).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TeamTokenMade
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
