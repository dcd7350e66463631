from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.member import Member
from ...models.member_account_request_request import MemberAccountRequestRequest
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    id: int,
    *,
    body: MemberAccountRequestRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/members/{id}/account/".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Member | Problem | None:
    if response.status_code == 201:
        response_201 = Member.from_dict(response.json())

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
) -> Response[Member | Problem]:
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
    body: MemberAccountRequestRequest,
) -> Response[Member | Problem]:
    """Make a member's account (its club's directors), with the user name and password
    given, and link it to them: for a player, or a bot, set up without a web form. The
    director hands the password to the player, who changes it once signed in. Refused
    (422), writing nothing: a member who has an account (``has_account``) or is erased
    (``already_erased``), a user name taken or not allowed, a password the site's
    validators refuse (``bad_account``).

    Args:
        id (int):
        body (MemberAccountRequestRequest): The body of ``POST /members/{id}/account/``: the new
            account's user name and password
            (the site's password validators decide; the password is never shown again).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Member | Problem]
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
    body: MemberAccountRequestRequest,
) -> Member | Problem | None:
    """Make a member's account (its club's directors), with the user name and password
    given, and link it to them: for a player, or a bot, set up without a web form. The
    director hands the password to the player, who changes it once signed in. Refused
    (422), writing nothing: a member who has an account (``has_account``) or is erased
    (``already_erased``), a user name taken or not allowed, a password the site's
    validators refuse (``bad_account``).

    Args:
        id (int):
        body (MemberAccountRequestRequest): The body of ``POST /members/{id}/account/``: the new
            account's user name and password
            (the site's password validators decide; the password is never shown again).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Member | Problem
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
    body: MemberAccountRequestRequest,
) -> Response[Member | Problem]:
    """Make a member's account (its club's directors), with the user name and password
    given, and link it to them: for a player, or a bot, set up without a web form. The
    director hands the password to the player, who changes it once signed in. Refused
    (422), writing nothing: a member who has an account (``has_account``) or is erased
    (``already_erased``), a user name taken or not allowed, a password the site's
    validators refuse (``bad_account``).

    Args:
        id (int):
        body (MemberAccountRequestRequest): The body of ``POST /members/{id}/account/``: the new
            account's user name and password
            (the site's password validators decide; the password is never shown again).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Member | Problem]
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
    body: MemberAccountRequestRequest,
) -> Member | Problem | None:
    """Make a member's account (its club's directors), with the user name and password
    given, and link it to them: for a player, or a bot, set up without a web form. The
    director hands the password to the player, who changes it once signed in. Refused
    (422), writing nothing: a member who has an account (``has_account``) or is erased
    (``already_erased``), a user name taken or not allowed, a password the site's
    validators refuse (``bad_account``).

    Args:
        id (int):
        body (MemberAccountRequestRequest): The body of ``POST /members/{id}/account/``: the new
            account's user name and password
            (the site's password validators decide; the password is never shown again).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Member | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
