"""The REST API, v1: resources, commands, roles and tokens, one error shape, webhooks, OpenAPI."""
