"""Formsign's Python client: every API operation as a typed method, webhook verification, typed errors."""
from ._generated import API_VERSION
from .client import Client
from .errors import (
    APIError,
    AuthenticationError,
    ConflictError,
    ConnectionError_,
    FormsignError,
    InvalidRequestError,
    NotFoundError,
    PermissionError_,
    RateLimitError,
)
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = [
    "API_VERSION",
    "APIError",
    "AuthenticationError",
    "Client",
    "ConflictError",
    "ConnectionError_",
    "FormsignError",
    "InvalidRequestError",
    "NotFoundError",
    "PermissionError_",
    "RateLimitError",
    "WebhookVerificationError",
    "verify_webhook",
]
__version__ = "0.1.0"
