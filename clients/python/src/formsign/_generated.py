# Generated from openapi/openapi.yaml by scripts/generate-python-client.ts (npm run generate).
# Do not edit by hand: a test fails when this file is not what the script makes of the document.
# flake8: noqa
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Literal, Optional, TypedDict, Union
from urllib.parse import quote

if TYPE_CHECKING:  # the annotations are strings: NotRequired is only read by type checkers
    from typing_extensions import NotRequired


def _q(value: str) -> str:
    return quote(str(value), safe="")


API_VERSION = "1.0.0"

ErrorError = TypedDict("ErrorError", {
    "type": 'Literal["invalid_request_error", "authentication_error", "permission_error", "not_found_error", "conflict_error", "rate_limit_error", "api_error"]',
    "code": 'Literal["invalid_json", "parameter_missing", "parameter_invalid", "parameter_unknown", "pdf_invalid", "pdf_encrypted", "pdf_already_signed", "language_unsupported", "template_invalid", "api_key_missing", "api_key_invalid", "auth_required", "auth_code_invalid", "auth_locked", "plan_required", "quota_exceeded", "resource_not_found", "route_not_found", "method_not_allowed", "form_already_sent", "form_not_signed", "form_expired", "form_not_sendable", "idempotency_key_reused", "idempotency_key_in_use", "not_your_turn", "form_not_voidable", "form_not_resealable", "source_pdf_missing", "form_not_deletable", "form_on_hold", "link_expired", "link_replaced", "payload_too_large", "unsupported_media_type", "pdf_too_complex", "document_unconvertible", "rate_limited", "monthly_quota_exceeded", "reminder_too_soon", "internal_error", "service_unavailable", "storage_unavailable"]',
    "message": "str",
    "param": "NotRequired[str]",
    "request_id": "str",
})

# The body of every error response.
Error = TypedDict("Error", {
    "error": "ErrorError",
})

# The answer of the health probes.
Health = TypedDict("Health", {
    "status": 'Literal["ok"]',
})

# A field of a template: where it is and what it accepts. Coordinates and sizes are in PDF points
Field = TypedDict("Field", {
    "name": "str",
    "type": 'Literal["text", "number", "date", "email", "phone", "checkbox", "radio", "select", "signature", "initials", "date_signed", "attachment"]',
    "label": "NotRequired[str]",
    "required": "bool",
    "signer": "int",
    "page": "int",
    "x": "float",
    "y": "float",
    "width": "float",
    "height": "float",
    "options": "NotRequired[List[str]]",
    "multiline": "NotRequired[bool]",
    "description": "NotRequired[str]",
    "max_length": "NotRequired[int]",
    "condition": "NotRequired[FieldCondition]",
    "formula": "NotRequired[str]",
    "accept": 'NotRequired[List[Literal["application/pdf", "image/png", "image/jpeg"]]]',
    "max_files": "NotRequired[int]",
})

FieldCondition1 = TypedDict("FieldCondition1", {
    "field": "str",
    "equals": "Union[str, float, bool]",
})

FieldCondition2 = TypedDict("FieldCondition2", {
    "field": "str",
    "one_of": "List[Union[str, float]]",
})

FieldCondition3 = TypedDict("FieldCondition3", {
    "field": "str",
    "not_empty": "Literal[true]",
})

FieldCondition4 = TypedDict("FieldCondition4", {
    "all": "List[FieldCondition]",
})

FieldCondition5 = TypedDict("FieldCondition5", {
    "any": "List[FieldCondition]",
})

# A field of a form: the template's `Field` with its current value. Coordinates and sizes are in PDF
FormField = TypedDict("FormField", {
    "name": "str",
    "type": 'Literal["text", "number", "date", "email", "phone", "checkbox", "radio", "select", "signature", "initials", "date_signed", "attachment"]',
    "label": "NotRequired[str]",
    "required": "bool",
    "signer": "int",
    "page": "int",
    "x": "float",
    "y": "float",
    "width": "float",
    "height": "float",
    "options": "NotRequired[List[str]]",
    "multiline": "NotRequired[bool]",
    "description": "NotRequired[str]",
    "max_length": "NotRequired[int]",
    "condition": "NotRequired[FieldCondition]",
    "formula": "NotRequired[str]",
    "accept": 'NotRequired[List[Literal["application/pdf", "image/png", "image/jpeg"]]]',
    "max_files": "NotRequired[int]",
    "value": "Union[str, float, bool, None]",
})

# A PDF document with its fields, from which forms are made.
Template = TypedDict("Template", {
    "object": 'Literal["template"]',
    "id": "str",
    "name": "str",
    "mode": 'Literal["live", "test"]',
    "page_count": "int",
    "fields": "List[Field]",
    "signer_count": "int",
    "signers": "List[SignerRole]",
    "warnings": "List[str]",
    "created_at": "str",
    "updated_at": "str",
})

# A page of templates, newest first.
TemplateList = TypedDict("TemplateList", {
    "object": 'Literal["list"]',
    "data": "List[Template]",
    "has_more": "bool",
})

# The body of `updateTemplate`; fields left out keep their value.
UpdateTemplateRequest = TypedDict("UpdateTemplateRequest", {
    "name": "NotRequired[str]",
    "fields": "NotRequired[List[FieldInput]]",
    "signers": "NotRequired[List[SignerRole]]",
})

# A field as given to `updateTemplate` (or as JSON in `createTemplate`'s `fields`): a `Field` whose
FieldInput = TypedDict("FieldInput", {
    "name": "str",
    "type": 'Literal["text", "number", "date", "email", "phone", "checkbox", "radio", "select", "signature", "initials", "date_signed", "attachment"]',
    "label": "NotRequired[str]",
    "required": "NotRequired[bool]",
    "signer": "NotRequired[int]",
    "page": "NotRequired[int]",
    "x": "float",
    "y": "float",
    "width": "float",
    "height": "float",
    "options": "NotRequired[List[str]]",
    "multiline": "NotRequired[bool]",
    "description": "NotRequired[str]",
    "max_length": "NotRequired[int]",
    "condition": "NotRequired[FieldCondition]",
    "formula": "NotRequired[str]",
    "accept": 'NotRequired[List[Literal["application/pdf", "image/png", "image/jpeg"]]]',
    "max_files": "NotRequired[int]",
})

# The answer to `deleteTemplate`.
DeletedTemplate = TypedDict("DeletedTemplate", {
    "object": 'Literal["template"]',
    "id": "str",
    "deleted": "Literal[true]",
})

# A person a form was sent to, with the state of their signature.
Recipient = TypedDict("Recipient", {
    "object": 'Literal["recipient"]',
    "id": "str",
    "name": "Union[str, None]",
    "email": "Union[str, None]",
    "phone": "Union[str, None]",
    "channel": 'Literal["email", "sms"]',
    "signer": "int",
    "status": 'Literal["waiting", "sent", "viewed", "signed", "approved", "declined"]',
    "delivery_status": 'Literal["queued", "delivered", "failed"]',
    "delivery_error": "Union[str, None]",
    "signing_url": "str",
    "sent_at": "str",
    "viewed_at": "Union[str, None]",
    "signed_at": "Union[str, None]",
    "locale": "Union[str, None]",
    "declined_at": "Union[str, None]",
    "decline_reason": "Union[str, None]",
    "last_reminded_at": "Union[str, None]",
    "meaning": "Union[str, None]",
    "role": "RecipientRole",
    "approved_at": "Union[str, None]",
    "message": "Union[str, None]",
})

BrandingLogo2 = TypedDict("BrandingLogo2", {
    "content_type": 'Literal["image/png", "image/svg+xml"]',
    "url": "str",
    "size": "int",
    "sha256": "str",
    "removed": "NotRequired[List[str]]",
})

# An account's brand.
Branding = TypedDict("Branding", {
    "object": 'Literal["branding"]',
    "logo": "Union[None, BrandingLogo2]",
    "accent_color": "Union[str, None]",
    "accent_color_requested": "Union[str, None]",
    "accent_adjusted": "bool",
    "accent_contrast": "Union[float, None]",
    "sender_name": "Union[str, None]",
    "updated_at": "Union[str, None]",
})

UpdateBrandingRequestLogo2 = TypedDict("UpdateBrandingRequestLogo2", {
    "content_type": 'Literal["image/png", "image/svg+xml"]',
    "data": "str",
})

# The parts of the brand to set; `null` removes one, a part left out stays.
UpdateBrandingRequest = TypedDict("UpdateBrandingRequest", {
    "logo": "NotRequired[Union[None, UpdateBrandingRequestLogo2]]",
    "accent_color": "NotRequired[Union[str, None]]",
    "sender_name": "NotRequired[Union[str, None]]",
})

# Reminders to each recipient who has not signed, `every_days` apart, at most `max` of them.
ReminderSchedule = TypedDict("ReminderSchedule", {
    "every_days": "int",
    "max": "int",
})

# Where sealing the signed document stands. `pending` from the last signature until the sealed
Sealing = TypedDict("Sealing", {
    "status": 'Literal["pending", "sealed", "failed"]',
    "attempts": "int",
    "last_error": "NotRequired[Union[str, None]]",
    "next_attempt_at": "NotRequired[Union[str, None]]",
})

# A filled copy of a template (or a generated document) to be signed. Status goes `draft` → `sent`
Form = TypedDict("Form", {
    "object": 'Literal["form"]',
    "id": "str",
    "mode": 'Literal["live", "test"]',
    "status": 'Literal["draft", "sent", "viewed", "signed", "expired", "declined", "voided", "deleted"]',
    "name": "Union[str, None]",
    "template_id": "Union[str, None]",
    "fields": "List[FormField]",
    "recipients": "List[Recipient]",
    "created_at": "str",
    "sent_at": "Union[str, None]",
    "completed_at": "Union[str, None]",
    "expires_at": "Union[str, None]",
    "metadata": "Dict[str, str]",
    "signing_order": 'Literal["parallel", "sequential"]',
    "reminders": "Union[ReminderSchedule, None]",
    "voided_at": "Union[str, None]",
    "void_reason": "Union[str, None]",
    "sealing": "NotRequired[Union[Sealing, None]]",
    "generator": 'NotRequired[Literal["builtin", "model"]]',
    "deleted_at": "NotRequired[str]",
    "legal_hold": "NotRequired[LegalHold]",
    "tombstone": "NotRequired[FormTombstone]",
    "signers": "NotRequired[List[SignerRole]]",
})

# Only on a form on legal hold (`holdForm`): no purge takes it, by `deleteForm` (`409 form_on_hold`)
LegalHold = TypedDict("LegalHold", {
    "reason": "str",
    "placed_by": "Union[str, None]",
    "placed_at": "str",
})

# One person, by the address they were sent forms at. Give `email` or `phone`, not both.
DataSubjectRequest = TypedDict("DataSubjectRequest", {
    "email": "NotRequired[str]",
    "phone": "NotRequired[str]",
})

DataSubjectErasureRefusedItem = TypedDict("DataSubjectErasureRefusedItem", {
    "form_id": "str",
    "status": "str",
    "code": 'Literal["form_on_hold", "form_not_deletable"]',
    "message": "str",
})

DataSubjectErasure = TypedDict("DataSubjectErasure", {
    "object": 'Literal["data_subject_erasure"]',
    "erased": "List[str]",
    "refused": "List[DataSubjectErasureRefusedItem]",
    "created_at": "str",
})

HoldFormRequest = TypedDict("HoldFormRequest", {
    "reason": "str",
})

# What is kept of a purged form (only on a `deleted` form): the SHA-256 of its sealed PDF (so a copy
FormTombstone = TypedDict("FormTombstone", {
    "sealed_sha256": "Union[str, None]",
    "recipients": "int",
    "signatures": "int",
    "events": "int",
    "files": 'Literal["deleting", "deleted"]',
})

# A page of forms, newest first.
FormList = TypedDict("FormList", {
    "object": 'Literal["list"]',
    "data": "List[Form]",
    "has_more": "bool",
})

BulkSendRowErrorsItem = TypedDict("BulkSendRowErrorsItem", {
    "row": "int",
    "error": "RowError",
})

# A bulk send (`createBulkSend`): one form per row, made from `template_id` and sent by the job
BulkSend = TypedDict("BulkSend", {
    "object": 'Literal["bulk_send"]',
    "id": "str",
    "mode": 'Literal["live", "test"]',
    "template_id": "str",
    "status": 'Literal["processing", "completed"]',
    "total": "int",
    "sent": "int",
    "failed": "int",
    "created_at": "str",
    "completed_at": "Union[str, None]",
    "row_errors": "NotRequired[List[BulkSendRowErrorsItem]]",
})

# Why a bulk send's row failed, as the contract's error (`Error`) without its request id.
RowError = TypedDict("RowError", {
    "code": "str",
    "message": "str",
    "param": "NotRequired[str]",
})

# One row of a bulk send and what became of it.
BulkSendRow = TypedDict("BulkSendRow", {
    "object": 'Literal["bulk_send_row"]',
    "row": "int",
    "status": 'Literal["pending", "sent", "failed"]',
    "form_id": "Union[str, None]",
    "error": "Union[RowError, None]",
})

# A page of bulk sends, newest first.
BulkSendList = TypedDict("BulkSendList", {
    "object": 'Literal["list"]',
    "data": "List[BulkSend]",
    "has_more": "bool",
})

# A page of a bulk send's rows, in row order.
BulkSendRowList = TypedDict("BulkSendRowList", {
    "object": 'Literal["list"]',
    "data": "List[BulkSendRow]",
    "has_more": "bool",
})

# The JSON body of `createBulkSend`.
CreateBulkSendRequest = TypedDict("CreateBulkSendRequest", {
    "template_id": "str",
    "rows": "List[BulkSendRowInput]",
})

# One form to create and send. Each row is checked as `createForm`'s body (`prefill`, `name`) and
BulkSendRowInput = TypedDict("BulkSendRowInput", {
    "prefill": "NotRequired[Dict[str, Any]]",
    "recipients": "NotRequired[Dict[str, Any]]",
    "name": "NotRequired[Dict[str, Any]]",
})

# For `recipient.authenticated` only. Never the code.
EventDataAuthentication = TypedDict("EventDataAuthentication", {
    "recipient_id": "str",
    "method": 'Literal["email_code", "sms_code", "access_code"]',
    "purpose": 'Literal["open", "sign"]',
})

# For `form.reassigned` only: whose link was replaced and by whom. The recipient in
EventDataReassignment = TypedDict("EventDataReassignment", {
    "recipient_id": "str",
    "replaced_by": 'Literal["sender", "signer"]',
})

EventData = TypedDict("EventData", {
    "object": "Union[Form, BulkSend]",
    "authentication": "NotRequired[EventDataAuthentication]",
    "reassignment": "NotRequired[EventDataReassignment]",
})

# Something that happened to a form (or, for `bulk_send.completed`, to a bulk send). The same object
Event = TypedDict("Event", {
    "object": 'Literal["event"]',
    "id": "str",
    "type": 'Union[EventType, Literal["recipient.authenticated"]]',
    "created_at": "str",
    "mode": 'Literal["live", "test"]',
    "data": "EventData",
})

TestEventData = TypedDict("TestEventData", {
    "object": "Webhook",
})

# The body of a `webhook.test` delivery: an event like the others, whose `data.object` is the
TestEvent = TypedDict("TestEvent", {
    "object": 'Literal["event"]',
    "id": "str",
    "type": 'Literal["webhook.test"]',
    "created_at": "str",
    "mode": 'Literal["live", "test"]',
    "data": "TestEventData",
})

# A page of events, newest first.
EventList = TypedDict("EventList", {
    "object": 'Literal["list"]',
    "data": "List[Event]",
    "has_more": "bool",
})

# An endpoint of yours that receives events of its partition.
Webhook = TypedDict("Webhook", {
    "object": 'Literal["webhook"]',
    "id": "str",
    "url": "str",
    "events": "List[EventType]",
    "status": 'Literal["enabled", "disabled"]',
    "mode": 'Literal["live", "test"]',
    "description": "Union[str, None]",
    "created_at": "str",
})

# A webhook with its signing secret, returned only by `createWebhook` and `rotateWebhookSecret`.
WebhookWithSecret = TypedDict("WebhookWithSecret", {
    "object": 'Literal["webhook"]',
    "id": "str",
    "url": "str",
    "events": "List[EventType]",
    "status": 'Literal["enabled", "disabled"]',
    "mode": 'Literal["live", "test"]',
    "description": "Union[str, None]",
    "created_at": "str",
    "signing_secret": "str",
})

# An origin allowed to frame the partition's signing pages.
EmbedOrigin = TypedDict("EmbedOrigin", {
    "object": 'Literal["embed_origin"]',
    "origin": "str",
    "mode": 'Literal["live", "test"]',
    "created_at": "str",
})

# The allowed origins, newest first, all in one page (at most 20).
EmbedOriginList = TypedDict("EmbedOriginList", {
    "object": 'Literal["list"]',
    "data": "List[EmbedOrigin]",
    "has_more": "bool",
})

DeletedEmbedOrigin = TypedDict("DeletedEmbedOrigin", {
    "object": 'Literal["embed_origin"]',
    "origin": "str",
    "deleted": "Literal[true]",
})

# The body of `addEmbedOrigin`.
AddEmbedOriginRequest = TypedDict("AddEmbedOriginRequest", {
    "origin": "str",
})

# A page of webhooks, newest first.
WebhookList = TypedDict("WebhookList", {
    "object": 'Literal["list"]',
    "data": "List[Webhook]",
    "has_more": "bool",
})

# The answer to `deleteWebhook`.
DeletedWebhook = TypedDict("DeletedWebhook", {
    "object": 'Literal["webhook"]',
    "id": "str",
    "deleted": "Literal[true]",
})

# The delivery of one event to one webhook, over its attempts. Attempts are made at once, then 5 s,
WebhookDelivery = TypedDict("WebhookDelivery", {
    "object": 'Literal["webhook_delivery"]',
    "id": "str",
    "webhook_id": "str",
    "event_id": "str",
    "event_type": "DeliveredEventType",
    "status": 'Literal["pending", "succeeded", "failed"]',
    "attempts": "int",
    "last_status_code": "Union[int, None]",
    "next_attempt_at": "Union[str, None]",
    "attempt_log": "List[WebhookDeliveryAttempt]",
    "mode": 'Literal["live", "test"]',
    "created_at": "str",
})

# One attempt of a delivery, as the delivery log keeps it.
WebhookDeliveryAttempt = TypedDict("WebhookDeliveryAttempt", {
    "attempt": "int",
    "attempted_at": "str",
    "status_code": "Union[int, None]",
    "duration_ms": "int",
    "error": "Union[str, None]",
    "response_body": "Union[str, None]",
})

# A page of deliveries, newest first.
WebhookDeliveryList = TypedDict("WebhookDeliveryList", {
    "object": 'Literal["list"]',
    "data": "List[WebhookDelivery]",
    "has_more": "bool",
})

# The signed PDF of a form, base64-encoded (`getSignedPdf` with `format=base64`).
SignedPdf = TypedDict("SignedPdf", {
    "object": 'Literal["signed_pdf"]',
    "form_id": "str",
    "filename": "str",
    "content_type": 'Literal["application/pdf"]',
    "size": "int",
    "sha256": "str",
    "data": "bytes",
})

# Long-term validation data in the document's DSS.
VerificationLtv = TypedDict("VerificationLtv", {
    "dss": "bool",
    "ocsp": "bool",
    "crl": "bool",
})

# What a PDF's signatures prove (`verifyPdf`, the `/verify` page, `formsign verify --json`).
Verification = TypedDict("Verification", {
    "object": 'Literal["verification"]',
    "issued_by_this_service": "bool",
    "form_id": "NotRequired[str]",
    "form_deleted_at": "NotRequired[str]",
    "intact": "bool",
    "modified_after_signing": "bool",
    "signatures": "List[VerifiedSignature]",
    "ltv": "VerificationLtv",
})

VerifiedSignatureCertificate2 = TypedDict("VerifiedSignatureCertificate2", {
    "subject": "str",
    "issuer": "str",
    "self_signed": "bool",
    "trusted_by_service": "bool",
})

# The RFC 3161 timestamp over the signature value (PAdES B-T), or a document timestamp's own token.
VerifiedSignatureTimestamp = TypedDict("VerifiedSignatureTimestamp", {
    "time": "str",
    "tsa": "str",
    "valid": "bool",
})

# One signature of a verified PDF, in the order the document lists them.
VerifiedSignature = TypedDict("VerifiedSignature", {
    "kind": 'Literal["signature", "document_timestamp"]',
    "field": "str",
    "signer_name": "NotRequired[str]",
    "signed_at": "Union[str, None]",
    "covers_whole_document": "bool",
    "valid": "bool",
    "reason": "NotRequired[str]",
    "modification_level": 'Literal["none", "ltv_updates", "form_filling", "annotations", "other"]',
    "changes": "List[VerifiedChange]",
    "certificate": "Union[None, VerifiedSignatureCertificate2]",
    "timestamp": "NotRequired[VerifiedSignatureTimestamp]",
})

# One object a revision after a signature adds or changes.
VerifiedChange = TypedDict("VerifiedChange", {
    "object": "str",
    "page": "NotRequired[int]",
    "kind": 'Literal["validation_data", "document_timestamp", "metadata", "signature_added", "field_value", "annotation_added", "annotation_changed", "field_added", "page_content", "page_resources", "page", "pages", "catalog", "form", "cross_reference", "object"]',
})

# The body of `createForm`.
CreateFormRequest = TypedDict("CreateFormRequest", {
    "template_id": "str",
    "prefill": "NotRequired[Prefill]",
    "name": "NotRequired[str]",
    "expires_in_days": "NotRequired[int]",
    "metadata": "NotRequired[Metadata]",
})

# A named signer slot: a template's (`Template.signers`, named in the dashboard's builder or by
SignerRole = TypedDict("SignerRole", {
    "slot": "int",
    "role": "str",
})

# The body of `generateForm`.
GenerateFormRequest = TypedDict("GenerateFormRequest", {
    "prompt": "str",
    "name": "NotRequired[str]",
    "prefill": "NotRequired[Prefill]",
    "expires_in_days": "NotRequired[int]",
    "metadata": "NotRequired[Metadata]",
    "save_as_template": "NotRequired[bool]",
    "page_size": 'NotRequired[Literal["letter", "a4"]]',
    "language": "NotRequired[str]",
})

# One recipient. `email` is required for the `email` channel and `phone` for `sms` (E.164, or a
SendFormRequestRecipientsItem = TypedDict("SendFormRequestRecipientsItem", {
    "email": "NotRequired[str]",
    "phone": "NotRequired[str]",
    "channel": 'Literal["email", "sms"]',
    "name": "NotRequired[str]",
    "signer": "NotRequired[int]",
    "locale": "NotRequired[str]",
    "auth": "NotRequired[RecipientAuth]",
    "role": "NotRequired[RecipientRole]",
    "message": "NotRequired[str]",
    "meaning": "NotRequired[str]",
})

# The body of `sendForm`.
SendFormRequest = TypedDict("SendFormRequest", {
    "message": "NotRequired[str]",
    "subject": "NotRequired[str]",
    "expires_in_days": "NotRequired[int]",
    "signing_order": 'NotRequired[Literal["parallel", "sequential"]]',
    "reminders": "NotRequired[ReminderSchedule]",
    "recipients": "List[SendFormRequestRecipientsItem]",
    "notify": "NotRequired[SendNotify]",
    "allow_reassign": "NotRequired[bool]",
})

# The body of `updateRecipient`; at least one member.
UpdateRecipientRequest = TypedDict("UpdateRecipientRequest", {
    "email": "NotRequired[str]",
    "phone": "NotRequired[str]",
    "name": "NotRequired[str]",
    "auth": "NotRequired[Union[RecipientAuth, None]]",
})

# A check the recipient must pass before the signing page shows the document (signer
RecipientAuth = TypedDict("RecipientAuth", {
    "method": 'Literal["email_code", "sms_code", "access_code"]',
    "access_code": "NotRequired[str]",
    "phone": "NotRequired[str]",
    "when": 'NotRequired[Literal["open", "sign"]]',
})

# Who is sent what when the form is completed. By default every recipient gets the completed copy:
SendNotify = TypedDict("SendNotify", {
    "completed_copy": "NotRequired[bool]",
})

# The body of `remindForm` (optional).
RemindFormRequest = TypedDict("RemindFormRequest", {
    "recipients": "NotRequired[List[str]]",
})

# The body of `voidForm` (optional).
VoidFormRequest = TypedDict("VoidFormRequest", {
    "reason": "NotRequired[str]",
})

# The body of `createWebhook`.
CreateWebhookRequest = TypedDict("CreateWebhookRequest", {
    "url": "str",
    "events": "List[EventType]",
    "description": "NotRequired[str]",
})

# The body of `updateWebhook`; fields left out keep their value.
UpdateWebhookRequest = TypedDict("UpdateWebhookRequest", {
    "url": "NotRequired[str]",
    "events": "NotRequired[List[EventType]]",
    "status": 'NotRequired[Literal["enabled", "disabled"]]',
    "description": "NotRequired[Union[str, None]]",
})

FieldCondition = Union[FieldCondition1, FieldCondition2, FieldCondition3, FieldCondition4, FieldCondition5]

RecipientRole = Literal["signer", "approver", "cc", "viewer"]

EventType = Literal["form.created", "form.sent", "form.viewed", "form.signed", "form.expired", "form.reminded", "form.declined", "form.voided", "form.deleted", "bulk_send.completed", "form.reassigned"]

DeliveredEventType = Union[EventType, Literal["webhook.test"]]

GeneratedSigner = SignerRole

Prefill = Dict[str, Union[str, float, bool, None]]

Metadata = Dict[str, str]


class Operations:
    """One method per operation of the API; `Client` supplies `_request`."""

    def _request(self, method: str, path: str, *, query: Optional[Dict[str, Any]] = None, json: Any = None, file: Any = None, fields: Optional[Dict[str, str]] = None, multipart: bool = False, idempotency_key: Optional[str] = None, expect: str = "json") -> Any:
        raise NotImplementedError

    def get_health(self) -> "Health":
        """Liveness probe (GET /healthz, operation getHealth)."""
        return self._request("GET", "/healthz", query=None, expect="json")  # type: ignore[no-any-return]

    def get_readiness(self) -> "Health":
        """Readiness probe (GET /readyz, operation getReadiness)."""
        return self._request("GET", "/readyz", query=None, expect="json")  # type: ignore[no-any-return]

    def get_open_api_document(self) -> "bytes":
        """Get this OpenAPI document (GET /api/v1/openapi.yaml, operation getOpenApiDocument)."""
        return self._request("GET", "/api/v1/openapi.yaml", query=None, expect="bytes")  # type: ignore[no-any-return]

    def get_typescript_sdk(self) -> "bytes":
        """Get the TypeScript type declarations (GET /api/v1/sdk/typescript, operation getTypescriptSdk)."""
        return self._request("GET", "/api/v1/sdk/typescript", query=None, expect="bytes")  # type: ignore[no-any-return]

    def list_templates(self, *, limit: "Optional[int]" = None, starting_after: "Optional[str]" = None) -> "TemplateList":
        """List templates (GET /api/v1/templates, operation listTemplates)."""
        return self._request("GET", "/api/v1/templates", query={"limit": limit, "starting_after": starting_after}, expect="json")  # type: ignore[no-any-return]

    def create_template(self, file: bytes, filename: str = "document.pdf", *, fields: Optional[Dict[str, str]] = None, idempotency_key: Optional[str] = None) -> "Template":
        """Upload a PDF (or a Word or OpenDocument file) as a template (POST /api/v1/templates, operation createTemplate)."""
        return self._request("POST", "/api/v1/templates", query=None, file=(filename, file), fields=fields, multipart=True, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def get_template(self, template_id: str) -> "Template":
        """Get a template (GET /api/v1/templates/{template_id}, operation getTemplate)."""
        return self._request("GET", f"/api/v1/templates/{_q(template_id)}", query=None, expect="json")  # type: ignore[no-any-return]

    def update_template(self, template_id: str, body: "UpdateTemplateRequest") -> "Template":
        """Update a template (PATCH /api/v1/templates/{template_id}, operation updateTemplate)."""
        return self._request("PATCH", f"/api/v1/templates/{_q(template_id)}", query=None, json=body, expect="json")  # type: ignore[no-any-return]

    def delete_template(self, template_id: str) -> "DeletedTemplate":
        """Delete a template (DELETE /api/v1/templates/{template_id}, operation deleteTemplate)."""
        return self._request("DELETE", f"/api/v1/templates/{_q(template_id)}", query=None, expect="json")  # type: ignore[no-any-return]

    def list_forms(self, *, limit: "Optional[int]" = None, starting_after: "Optional[str]" = None, status: 'Optional[Literal["draft", "sent", "viewed", "signed", "expired", "declined", "voided", "deleted"]]' = None) -> "FormList":
        """List forms (GET /api/v1/forms, operation listForms)."""
        return self._request("GET", "/api/v1/forms", query={"limit": limit, "starting_after": starting_after, "status": status}, expect="json")  # type: ignore[no-any-return]

    def create_form(self, body: "CreateFormRequest", *, idempotency_key: Optional[str] = None) -> "Form":
        """Create a form from a template (POST /api/v1/forms, operation createForm)."""
        return self._request("POST", "/api/v1/forms", query=None, json=body, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def generate_form(self, body: "GenerateFormRequest", *, idempotency_key: Optional[str] = None) -> "Form":
        """Generate a form from a description (POST /api/v1/forms/generate, operation generateForm)."""
        return self._request("POST", "/api/v1/forms/generate", query=None, json=body, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def get_form(self, form_id: str) -> "Form":
        """Get a form (GET /api/v1/forms/{form_id}, operation getForm)."""
        return self._request("GET", f"/api/v1/forms/{_q(form_id)}", query=None, expect="json")  # type: ignore[no-any-return]

    def delete_form(self, form_id: str) -> "Form":
        """Delete a form (DELETE /api/v1/forms/{form_id}, operation deleteForm)."""
        return self._request("DELETE", f"/api/v1/forms/{_q(form_id)}", query=None, expect="json")  # type: ignore[no-any-return]

    def hold_form(self, form_id: str, body: "HoldFormRequest", *, idempotency_key: Optional[str] = None) -> "Form":
        """Place a legal hold on a form (POST /api/v1/forms/{form_id}/hold, operation holdForm)."""
        return self._request("POST", f"/api/v1/forms/{_q(form_id)}/hold", query=None, json=body, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def release_form_hold(self, form_id: str) -> "Form":
        """Release a form's legal hold (DELETE /api/v1/forms/{form_id}/hold, operation releaseFormHold)."""
        return self._request("DELETE", f"/api/v1/forms/{_q(form_id)}/hold", query=None, expect="json")  # type: ignore[no-any-return]

    def get_form_pdf(self, form_id: str) -> "bytes":
        """Download the filled PDF (GET /api/v1/forms/{form_id}/pdf, operation getFormPdf)."""
        return self._request("GET", f"/api/v1/forms/{_q(form_id)}/pdf", query=None, expect="bytes")  # type: ignore[no-any-return]

    def get_template_preview(self, template_id: str) -> "bytes":
        """See where a template's fields are (GET /api/v1/templates/{template_id}/preview, operation getTemplatePreview)."""
        return self._request("GET", f"/api/v1/templates/{_q(template_id)}/preview", query=None, expect="bytes")  # type: ignore[no-any-return]

    def relabel_template(self, template_id: str, *, idempotency_key: Optional[str] = None) -> "Template":
        """Relabel a template's fields from its PDF (POST /api/v1/templates/{template_id}/relabel, operation relabelTemplate)."""
        return self._request("POST", f"/api/v1/templates/{_q(template_id)}/relabel", query=None, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def list_form_events(self, form_id: str, *, limit: "Optional[int]" = None, starting_after: "Optional[str]" = None) -> "EventList":
        """List a form's events (GET /api/v1/forms/{form_id}/events, operation listFormEvents)."""
        return self._request("GET", f"/api/v1/forms/{_q(form_id)}/events", query={"limit": limit, "starting_after": starting_after}, expect="json")  # type: ignore[no-any-return]

    def send_form(self, form_id: str, body: "SendFormRequest", *, idempotency_key: Optional[str] = None) -> "Form":
        """Send a form to recipients (POST /api/v1/forms/{form_id}/send, operation sendForm)."""
        return self._request("POST", f"/api/v1/forms/{_q(form_id)}/send", query=None, json=body, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def update_recipient(self, form_id: str, recipient_id: str, body: "UpdateRecipientRequest") -> "Form":
        """Correct or replace a recipient who has not signed (PATCH /api/v1/forms/{form_id}/recipients/{recipient_id}, operation updateRecipient)."""
        return self._request("PATCH", f"/api/v1/forms/{_q(form_id)}/recipients/{_q(recipient_id)}", query=None, json=body, expect="json")  # type: ignore[no-any-return]

    def remind_form(self, form_id: str, body: "RemindFormRequest", *, idempotency_key: Optional[str] = None) -> "Form":
        """Remind recipients who have not signed (POST /api/v1/forms/{form_id}/remind, operation remindForm)."""
        return self._request("POST", f"/api/v1/forms/{_q(form_id)}/remind", query=None, json=body, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def reseal_form(self, form_id: str, *, idempotency_key: Optional[str] = None) -> "Form":
        """Retry a failed seal (POST /api/v1/forms/{form_id}/reseal, operation resealForm)."""
        return self._request("POST", f"/api/v1/forms/{_q(form_id)}/reseal", query=None, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def void_form(self, form_id: str, body: "VoidFormRequest", *, idempotency_key: Optional[str] = None) -> "Form":
        """Void (withdraw) a sent form (POST /api/v1/forms/{form_id}/void, operation voidForm)."""
        return self._request("POST", f"/api/v1/forms/{_q(form_id)}/void", query=None, json=body, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def expire_form(self, form_id: str, *, idempotency_key: Optional[str] = None) -> "Form":
        """Expire a form now (test mode) (POST /api/v1/forms/{form_id}/expire, operation expireForm)."""
        return self._request("POST", f"/api/v1/forms/{_q(form_id)}/expire", query=None, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def get_signed_pdf(self, form_id: str, *, format_: 'Optional[Literal["url", "base64"]]' = None) -> "SignedPdf":
        """Get the signed PDF (GET /api/v1/forms/{form_id}/signed-pdf, operation getSignedPdf)."""
        return self._request("GET", f"/api/v1/forms/{_q(form_id)}/signed-pdf", query={"format": format_}, expect="json")  # type: ignore[no-any-return]

    def get_audit_trail(self, form_id: str) -> "bytes":
        """Get the audit trail as a PDF (GET /api/v1/forms/{form_id}/audit-trail, operation getAuditTrail)."""
        return self._request("GET", f"/api/v1/forms/{_q(form_id)}/audit-trail", query=None, expect="bytes")  # type: ignore[no-any-return]

    def get_form_attachment(self, form_id: str, attachment_id: str) -> "bytes":
        """Download a file a signer attached (GET /api/v1/forms/{form_id}/attachments/{attachment_id}, operation getFormAttachment)."""
        return self._request("GET", f"/api/v1/forms/{_q(form_id)}/attachments/{_q(attachment_id)}", query=None, expect="bytes")  # type: ignore[no-any-return]

    def get_form_evidence(self, form_id: str) -> "bytes":
        """Download the evidence bundle of a signed form (ZIP) (GET /api/v1/forms/{form_id}/evidence, operation getFormEvidence)."""
        return self._request("GET", f"/api/v1/forms/{_q(form_id)}/evidence", query=None, expect="bytes")  # type: ignore[no-any-return]

    def list_bulk_sends(self, *, limit: "Optional[int]" = None, starting_after: "Optional[str]" = None) -> "BulkSendList":
        """List bulk sends (GET /api/v1/bulk-sends, operation listBulkSends)."""
        return self._request("GET", "/api/v1/bulk-sends", query={"limit": limit, "starting_after": starting_after}, expect="json")  # type: ignore[no-any-return]

    def create_bulk_send(self, body: "CreateBulkSendRequest", *, idempotency_key: Optional[str] = None) -> "BulkSend":
        """Send a template to many recipients, one form per row (POST /api/v1/bulk-sends, operation createBulkSend)."""
        return self._request("POST", "/api/v1/bulk-sends", query=None, json=body, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def get_bulk_send(self, bulk_send_id: str) -> "BulkSend":
        """Get a bulk send's progress (GET /api/v1/bulk-sends/{bulk_send_id}, operation getBulkSend)."""
        return self._request("GET", f"/api/v1/bulk-sends/{_q(bulk_send_id)}", query=None, expect="json")  # type: ignore[no-any-return]

    def list_bulk_send_rows(self, bulk_send_id: str, *, limit: "Optional[int]" = None, starting_after: "Optional[int]" = None, status: 'Optional[Literal["pending", "sent", "failed"]]' = None) -> "BulkSendRowList":
        """List a bulk send's rows (GET /api/v1/bulk-sends/{bulk_send_id}/rows, operation listBulkSendRows)."""
        return self._request("GET", f"/api/v1/bulk-sends/{_q(bulk_send_id)}/rows", query={"limit": limit, "starting_after": starting_after, "status": status}, expect="json")  # type: ignore[no-any-return]

    def export_data_subject(self, *, email: "Optional[str]" = None, phone: "Optional[str]" = None) -> "bytes":
        """Export what is held about one person (ZIP) (GET /api/v1/data-subjects/export, operation exportDataSubject)."""
        return self._request("GET", "/api/v1/data-subjects/export", query={"email": email, "phone": phone}, expect="bytes")  # type: ignore[no-any-return]

    def erase_data_subject(self, body: "DataSubjectRequest", *, idempotency_key: Optional[str] = None) -> "DataSubjectErasure":
        """Erase one person's data from every finished form (POST /api/v1/data-subjects/erase, operation eraseDataSubject)."""
        return self._request("POST", "/api/v1/data-subjects/erase", query=None, json=body, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def download_file(self, token: str) -> "bytes":
        """Download a file by presigned address (GET /api/v1/files/pdf/{token}, operation downloadFile)."""
        return self._request("GET", f"/api/v1/files/pdf/{_q(token)}", query=None, expect="bytes")  # type: ignore[no-any-return]

    def get_branding(self) -> "Branding":
        """The account's brand (GET /api/v1/branding, operation getBranding)."""
        return self._request("GET", "/api/v1/branding", query=None, expect="json")  # type: ignore[no-any-return]

    def update_branding(self, body: "UpdateBrandingRequest") -> "Branding":
        """Set the account's brand (PATCH /api/v1/branding, operation updateBranding)."""
        return self._request("PATCH", "/api/v1/branding", query=None, json=body, expect="json")  # type: ignore[no-any-return]

    def list_embed_origins(self) -> "EmbedOriginList":
        """List the origins allowed to embed signing pages (GET /api/v1/embed/origins, operation listEmbedOrigins)."""
        return self._request("GET", "/api/v1/embed/origins", query=None, expect="json")  # type: ignore[no-any-return]

    def add_embed_origin(self, body: "AddEmbedOriginRequest", *, idempotency_key: Optional[str] = None) -> "EmbedOrigin":
        """Allow an origin to embed signing pages (POST /api/v1/embed/origins, operation addEmbedOrigin)."""
        return self._request("POST", "/api/v1/embed/origins", query=None, json=body, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def remove_embed_origin(self, *, origin: "Optional[str]" = None) -> "DeletedEmbedOrigin":
        """Stop allowing an origin to embed signing pages (DELETE /api/v1/embed/origins, operation removeEmbedOrigin)."""
        return self._request("DELETE", "/api/v1/embed/origins", query={"origin": origin}, expect="json")  # type: ignore[no-any-return]

    def verify_pdf(self, file: bytes, filename: str = "document.pdf", *, fields: Optional[Dict[str, str]] = None, idempotency_key: Optional[str] = None) -> "Verification":
        """Verify a signed PDF (POST /api/v1/verify, operation verifyPdf)."""
        return self._request("POST", "/api/v1/verify", query=None, file=(filename, file), fields=fields, multipart=True, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def list_events(self, *, limit: "Optional[int]" = None, starting_after: "Optional[str]" = None, ending_before: "Optional[str]" = None, type_: "Optional[EventType]" = None, form_id: "Optional[str]" = None, created_gte: "Optional[str]" = None, created_lt: "Optional[str]" = None) -> "EventList":
        """List events (GET /api/v1/events, operation listEvents)."""
        return self._request("GET", "/api/v1/events", query={"limit": limit, "starting_after": starting_after, "ending_before": ending_before, "type": type_, "form_id": form_id, "created[gte]": created_gte, "created[lt]": created_lt}, expect="json")  # type: ignore[no-any-return]

    def get_event(self, event_id: str) -> "Event":
        """Get an event (GET /api/v1/events/{event_id}, operation getEvent)."""
        return self._request("GET", f"/api/v1/events/{_q(event_id)}", query=None, expect="json")  # type: ignore[no-any-return]

    def list_webhooks(self, *, limit: "Optional[int]" = None, starting_after: "Optional[str]" = None) -> "WebhookList":
        """List webhooks (GET /api/v1/webhooks, operation listWebhooks)."""
        return self._request("GET", "/api/v1/webhooks", query={"limit": limit, "starting_after": starting_after}, expect="json")  # type: ignore[no-any-return]

    def create_webhook(self, body: "CreateWebhookRequest", *, idempotency_key: Optional[str] = None) -> "WebhookWithSecret":
        """Create a webhook (POST /api/v1/webhooks, operation createWebhook)."""
        return self._request("POST", "/api/v1/webhooks", query=None, json=body, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def get_webhook(self, webhook_id: str) -> "Webhook":
        """Get a webhook (GET /api/v1/webhooks/{webhook_id}, operation getWebhook)."""
        return self._request("GET", f"/api/v1/webhooks/{_q(webhook_id)}", query=None, expect="json")  # type: ignore[no-any-return]

    def update_webhook(self, webhook_id: str, body: "UpdateWebhookRequest") -> "Webhook":
        """Update a webhook (PATCH /api/v1/webhooks/{webhook_id}, operation updateWebhook)."""
        return self._request("PATCH", f"/api/v1/webhooks/{_q(webhook_id)}", query=None, json=body, expect="json")  # type: ignore[no-any-return]

    def delete_webhook(self, webhook_id: str) -> "DeletedWebhook":
        """Delete a webhook (DELETE /api/v1/webhooks/{webhook_id}, operation deleteWebhook)."""
        return self._request("DELETE", f"/api/v1/webhooks/{_q(webhook_id)}", query=None, expect="json")  # type: ignore[no-any-return]

    def rotate_webhook_secret(self, webhook_id: str, *, idempotency_key: Optional[str] = None) -> "WebhookWithSecret":
        """Rotate a webhook's signing secret (POST /api/v1/webhooks/{webhook_id}/rotate-secret, operation rotateWebhookSecret)."""
        return self._request("POST", f"/api/v1/webhooks/{_q(webhook_id)}/rotate-secret", query=None, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def list_webhook_deliveries(self, webhook_id: str, *, limit: "Optional[int]" = None, starting_after: "Optional[str]" = None) -> "WebhookDeliveryList":
        """List a webhook's deliveries (GET /api/v1/webhooks/{webhook_id}/deliveries, operation listWebhookDeliveries)."""
        return self._request("GET", f"/api/v1/webhooks/{_q(webhook_id)}/deliveries", query={"limit": limit, "starting_after": starting_after}, expect="json")  # type: ignore[no-any-return]

    def retry_webhook_delivery(self, webhook_id: str, delivery_id: str, *, idempotency_key: Optional[str] = None) -> "WebhookDelivery":
        """Retry a delivery (POST /api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry, operation retryWebhookDelivery)."""
        return self._request("POST", f"/api/v1/webhooks/{_q(webhook_id)}/deliveries/{_q(delivery_id)}/retry", query=None, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]

    def send_webhook_test_event(self, webhook_id: str, *, idempotency_key: Optional[str] = None) -> "WebhookDelivery":
        """Send a test event (POST /api/v1/webhooks/{webhook_id}/test, operation sendWebhookTestEvent)."""
        return self._request("POST", f"/api/v1/webhooks/{_q(webhook_id)}/test", query=None, idempotency_key=idempotency_key, expect="json")  # type: ignore[no-any-return]
