from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.match import Match
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    wait_for_seq: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["wait_for_seq"] = wait_for_seq

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/matches/{id}/".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Match | Problem | None:
    if response.status_code == 200:
        response_200 = Match.from_dict(response.json())

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
) -> Response[Match | Problem]:
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
    wait_for_seq: int | Unset = UNSET,
) -> Response[Match | Problem]:
    """A match and its result. The status and the head (``last_seq``) are the log's own, the
    result is scoring's projection of it, which follows a moment later: ``result.seq`` says
    up to which event it has folded the log. ``?wait_for_seq=N`` answers once it has folded
    event N (or the head, if N is beyond it), waiting at most ``API_WAIT_FOR_SEQ_SECONDS``
    (then the answer is what there is: compare ``result.seq``).

    Args:
        id (int):
        wait_for_seq (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Match | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        wait_for_seq=wait_for_seq,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    wait_for_seq: int | Unset = UNSET,
) -> Match | Problem | None:
    """A match and its result. The status and the head (``last_seq``) are the log's own, the
    result is scoring's projection of it, which follows a moment later: ``result.seq`` says
    up to which event it has folded the log. ``?wait_for_seq=N`` answers once it has folded
    event N (or the head, if N is beyond it), waiting at most ``API_WAIT_FOR_SEQ_SECONDS``
    (then the answer is what there is: compare ``result.seq``).

    Args:
        id (int):
        wait_for_seq (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Match | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        wait_for_seq=wait_for_seq,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    wait_for_seq: int | Unset = UNSET,
) -> Response[Match | Problem]:
    """A match and its result. The status and the head (``last_seq``) are the log's own, the
    result is scoring's projection of it, which follows a moment later: ``result.seq`` says
    up to which event it has folded the log. ``?wait_for_seq=N`` answers once it has folded
    event N (or the head, if N is beyond it), waiting at most ``API_WAIT_FOR_SEQ_SECONDS``
    (then the answer is what there is: compare ``result.seq``).

    Args:
        id (int):
        wait_for_seq (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Match | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        wait_for_seq=wait_for_seq,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    wait_for_seq: int | Unset = UNSET,
) -> Match | Problem | None:
    """A match and its result. The status and the head (``last_seq``) are the log's own, the
    result is scoring's projection of it, which follows a moment later: ``result.seq`` says
    up to which event it has folded the log. ``?wait_for_seq=N`` answers once it has folded
    event N (or the head, if N is beyond it), waiting at most ``API_WAIT_FOR_SEQ_SECONDS``
    (then the answer is what there is: compare ``result.seq``).

    Args:
        id (int):
        wait_for_seq (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Match | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            wait_for_seq=wait_for_seq,
        )
    ).parsed
