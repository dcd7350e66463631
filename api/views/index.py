"""The index of the API: a link to each resource."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView


class Index(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="The resources of the API")
    def get(self, request: Request) -> Response:
        def link(name: str) -> str:
            return reverse(name, request=request)

        return Response(
            {
                "tournaments": link("api:tournaments"),
                "clubs": link("api:clubs"),
                "matches": link("api:matches"),
                "tokens": link("api:tokens"),
                "webhooks": link("api:webhooks"),
                "schema": link("schema"),
                "docs": link("docs"),
                "health": link("healthz"),
            }
        )
