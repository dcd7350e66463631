from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.appended import Appended
from ...models.correction_preview import CorrectionPreview
from ...models.deal_confirmed_command_request import DealConfirmedCommandRequest
from ...models.deal_corrected_command_request import DealCorrectedCommandRequest
from ...models.deal_ended_command_request import DealEndedCommandRequest
from ...models.deal_entered_command_request import DealEnteredCommandRequest
from ...models.deal_rejected_command_request import DealRejectedCommandRequest
from ...models.deal_voided_command_request import DealVoidedCommandRequest
from ...models.entry_withdrawn_command_request import EntryWithdrawnCommandRequest
from ...models.match_forfeited_command_request import MatchForfeitedCommandRequest
from ...models.match_started_command_request import MatchStartedCommandRequest
from ...models.move_played_command_request import MovePlayedCommandRequest
from ...models.move_withdrawn_command_request import MoveWithdrawnCommandRequest
from ...models.problem import Problem
from ...models.score_adjusted_command_request import ScoreAdjustedCommandRequest
from ...models.version_accepted_command_request import VersionAcceptedCommandRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    body: DealConfirmedCommandRequest
    | DealCorrectedCommandRequest
    | DealEndedCommandRequest
    | DealEnteredCommandRequest
    | DealRejectedCommandRequest
    | DealVoidedCommandRequest
    | EntryWithdrawnCommandRequest
    | MatchForfeitedCommandRequest
    | MatchStartedCommandRequest
    | MovePlayedCommandRequest
    | MoveWithdrawnCommandRequest
    | ScoreAdjustedCommandRequest
    | Unset
    | VersionAcceptedCommandRequest = UNSET,
    dry_run: bool | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    params: dict[str, Any] = {}

    params["dry_run"] = dry_run

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/matches/{id}/events/".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    if (
        isinstance(body, MatchStartedCommandRequest)
        or isinstance(body, MovePlayedCommandRequest)
        or isinstance(body, MoveWithdrawnCommandRequest)
        or isinstance(body, DealEndedCommandRequest)
        or isinstance(body, DealEnteredCommandRequest)
        or isinstance(body, DealConfirmedCommandRequest)
        or isinstance(body, DealRejectedCommandRequest)
        or isinstance(body, EntryWithdrawnCommandRequest)
        or isinstance(body, VersionAcceptedCommandRequest)
        or isinstance(body, DealCorrectedCommandRequest)
        or isinstance(body, DealVoidedCommandRequest)
        or isinstance(body, ScoreAdjustedCommandRequest)
    ):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Appended | CorrectionPreview | Problem | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> Appended | CorrectionPreview:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_appended_or_preview_type_0 = Appended.from_dict(data)

                return componentsschemas_appended_or_preview_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_appended_or_preview_type_1 = CorrectionPreview.from_dict(
                data
            )

            return componentsschemas_appended_or_preview_type_1

        response_200 = _parse_response_200(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = Appended.from_dict(response.json())

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
) -> Response[Appended | CorrectionPreview | Problem]:
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
    body: DealConfirmedCommandRequest
    | DealCorrectedCommandRequest
    | DealEndedCommandRequest
    | DealEnteredCommandRequest
    | DealRejectedCommandRequest
    | DealVoidedCommandRequest
    | EntryWithdrawnCommandRequest
    | MatchForfeitedCommandRequest
    | MatchStartedCommandRequest
    | MovePlayedCommandRequest
    | MoveWithdrawnCommandRequest
    | ScoreAdjustedCommandRequest
    | Unset
    | VersionAcceptedCommandRequest = UNSET,
    dry_run: bool | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Appended | CorrectionPreview | Problem]:
    """Append a command to the match's log

    Args:
        id (int):
        dry_run (bool | Unset):
        idempotency_key (str | Unset):
        body (DealConfirmedCommandRequest | DealCorrectedCommandRequest | DealEndedCommandRequest
            | DealEnteredCommandRequest | DealRejectedCommandRequest | DealVoidedCommandRequest |
            EntryWithdrawnCommandRequest | MatchForfeitedCommandRequest | MatchStartedCommandRequest |
            MovePlayedCommandRequest | MoveWithdrawnCommandRequest | ScoreAdjustedCommandRequest |
            Unset | VersionAcceptedCommandRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Appended | Appended | CorrectionPreview | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        dry_run=dry_run,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    body: DealConfirmedCommandRequest
    | DealCorrectedCommandRequest
    | DealEndedCommandRequest
    | DealEnteredCommandRequest
    | DealRejectedCommandRequest
    | DealVoidedCommandRequest
    | EntryWithdrawnCommandRequest
    | MatchForfeitedCommandRequest
    | MatchStartedCommandRequest
    | MovePlayedCommandRequest
    | MoveWithdrawnCommandRequest
    | ScoreAdjustedCommandRequest
    | Unset
    | VersionAcceptedCommandRequest = UNSET,
    dry_run: bool | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Appended | CorrectionPreview | Problem | None:
    """Append a command to the match's log

    Args:
        id (int):
        dry_run (bool | Unset):
        idempotency_key (str | Unset):
        body (DealConfirmedCommandRequest | DealCorrectedCommandRequest | DealEndedCommandRequest
            | DealEnteredCommandRequest | DealRejectedCommandRequest | DealVoidedCommandRequest |
            EntryWithdrawnCommandRequest | MatchForfeitedCommandRequest | MatchStartedCommandRequest |
            MovePlayedCommandRequest | MoveWithdrawnCommandRequest | ScoreAdjustedCommandRequest |
            Unset | VersionAcceptedCommandRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Appended | Appended | CorrectionPreview | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        dry_run=dry_run,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    body: DealConfirmedCommandRequest
    | DealCorrectedCommandRequest
    | DealEndedCommandRequest
    | DealEnteredCommandRequest
    | DealRejectedCommandRequest
    | DealVoidedCommandRequest
    | EntryWithdrawnCommandRequest
    | MatchForfeitedCommandRequest
    | MatchStartedCommandRequest
    | MovePlayedCommandRequest
    | MoveWithdrawnCommandRequest
    | ScoreAdjustedCommandRequest
    | Unset
    | VersionAcceptedCommandRequest = UNSET,
    dry_run: bool | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Appended | CorrectionPreview | Problem]:
    """Append a command to the match's log

    Args:
        id (int):
        dry_run (bool | Unset):
        idempotency_key (str | Unset):
        body (DealConfirmedCommandRequest | DealCorrectedCommandRequest | DealEndedCommandRequest
            | DealEnteredCommandRequest | DealRejectedCommandRequest | DealVoidedCommandRequest |
            EntryWithdrawnCommandRequest | MatchForfeitedCommandRequest | MatchStartedCommandRequest |
            MovePlayedCommandRequest | MoveWithdrawnCommandRequest | ScoreAdjustedCommandRequest |
            Unset | VersionAcceptedCommandRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Appended | Appended | CorrectionPreview | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        dry_run=dry_run,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    body: DealConfirmedCommandRequest
    | DealCorrectedCommandRequest
    | DealEndedCommandRequest
    | DealEnteredCommandRequest
    | DealRejectedCommandRequest
    | DealVoidedCommandRequest
    | EntryWithdrawnCommandRequest
    | MatchForfeitedCommandRequest
    | MatchStartedCommandRequest
    | MovePlayedCommandRequest
    | MoveWithdrawnCommandRequest
    | ScoreAdjustedCommandRequest
    | Unset
    | VersionAcceptedCommandRequest = UNSET,
    dry_run: bool | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Appended | CorrectionPreview | Problem | None:
    """Append a command to the match's log

    Args:
        id (int):
        dry_run (bool | Unset):
        idempotency_key (str | Unset):
        body (DealConfirmedCommandRequest | DealCorrectedCommandRequest | DealEndedCommandRequest
            | DealEnteredCommandRequest | DealRejectedCommandRequest | DealVoidedCommandRequest |
            EntryWithdrawnCommandRequest | MatchForfeitedCommandRequest | MatchStartedCommandRequest |
            MovePlayedCommandRequest | MoveWithdrawnCommandRequest | ScoreAdjustedCommandRequest |
            Unset | VersionAcceptedCommandRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Appended | Appended | CorrectionPreview | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            dry_run=dry_run,
            idempotency_key=idempotency_key,
        )
    ).parsed
