import getHealth from './health/getHealth.js';
import getReadiness from './health/getReadiness.js';
import getOpenApiDocument from './meta/getOpenApiDocument.js';
import getTypescriptSdk from './meta/getTypescriptSdk.js';
import createForm from './forms/createForm.js';
// Issue 42: bulk send.
import createBulkSend from './bulk-sends/createBulkSend.js';
import getBulkSend from './bulk-sends/getBulkSend.js';
import listBulkSends from './bulk-sends/listBulkSends.js';
import listBulkSendRows from './bulk-sends/listBulkSendRows.js';
import generateForm from './forms/generateForm.js';
import deleteForm from './forms/deleteForm.js';
import holdForm from './forms/holdForm.js';
import releaseFormHold from './forms/releaseFormHold.js';
import getForm from './forms/getForm.js';
import getFormPdf from './forms/getFormPdf.js';
import getFormAttachment from './forms/getFormAttachment.js';
import listFormEvents from './forms/listFormEvents.js';
import listForms from './forms/listForms.js';
import sendForm from './forms/sendForm.js';
import expireForm from './forms/expireForm.js';
import getSignedPdf from './forms/getSignedPdf.js';
// Issue 25 (evidence): retry a failed seal.
import resealForm from './forms/resealForm.js';
import downloadFile from './files/downloadFile.js';
import createTemplate from './templates/createTemplate.js';
import deleteTemplate from './templates/deleteTemplate.js';
import getTemplate from './templates/getTemplate.js';
import getTemplatePreview from './templates/getTemplatePreview.js';
import listTemplates from './templates/listTemplates.js';
import updateTemplate from './templates/updateTemplate.js';
// Issue 29: labels from the PDF for a stored template.
import relabelTemplate from './templates/relabelTemplate.js';
import createWebhook from './webhooks/createWebhook.js';
import deleteWebhook from './webhooks/deleteWebhook.js';
import getWebhook from './webhooks/getWebhook.js';
import listWebhookDeliveries from './webhooks/listWebhookDeliveries.js';
import listWebhooks from './webhooks/listWebhooks.js';
import retryWebhookDelivery from './webhooks/retryWebhookDelivery.js';
import rotateWebhookSecret from './webhooks/rotateWebhookSecret.js';
import updateWebhook from './webhooks/updateWebhook.js';
// Events API (issue 26).
import listEvents from './events/listEvents.js';
import getEvent from './events/getEvent.js';
// Dashboard (issue 24): the webhook test operation.
import sendWebhookTestEvent from './webhooks/sendWebhookTestEvent.js';
// After sending (issue #23).
import remindForm from './forms/remindForm.js';
import voidForm from './forms/voidForm.js';
// Issue 38: correcting a recipient who has not signed.
import updateRecipient from './forms/updateRecipient.js';
// Embedded signing (issue 26).
import listEmbedOrigins from './embed/listEmbedOrigins.js';
import addEmbedOrigin from './embed/addEmbedOrigin.js';
import removeEmbedOrigin from './embed/removeEmbedOrigin.js';
import getAuditTrail from './evidence/getAuditTrail.js';
// Issue 40: the evidence bundle.
import getFormEvidence from './evidence/getFormEvidence.js';
// Issue 40: a person's data.
import exportDataSubject from './data-subjects/exportDataSubject.js';
import eraseDataSubject from './data-subjects/eraseDataSubject.js';
import verifyPdf from './evidence/verifyPdf.js';
// Issue 42: the account's brand.
import getBranding from './branding/getBranding.js';
import updateBranding from './branding/updateBranding.js';
import type { RouteDef } from './route.js';

/** Every implemented operation; app.ts refuses to start when this and openapi.yaml disagree. */
export const ROUTES: readonly RouteDef[] = [
  createBulkSend,
  getBulkSend,
  listBulkSendRows,
  listBulkSends,
  getHealth,
  getReadiness,
  getOpenApiDocument,
  getTypescriptSdk,
  listTemplates,
  createTemplate,
  getTemplate,
  updateTemplate,
  deleteTemplate,
  getTemplatePreview,
  relabelTemplate,
  createForm,
  generateForm,
  listForms,
  deleteForm,
  holdForm,
  releaseFormHold,
  getForm,
  getFormPdf,
  listFormEvents,
  sendForm,
  expireForm,
  getSignedPdf,
  downloadFile,
  listWebhooks,
  createWebhook,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  listWebhookDeliveries,
  retryWebhookDelivery,
  // Events API (issue 26).
  listEvents,
  getEvent,
  // Dashboard (issue 24).
  sendWebhookTestEvent,
  // After sending (issue #23).
  remindForm,
  voidForm,
  updateRecipient,
  // Issue 25 (evidence).
  resealForm,
  // Embedded signing (issue 26).
  listEmbedOrigins,
  addEmbedOrigin,
  removeEmbedOrigin,
  // Evidence (issue 25): the verifier and the audit trail alone.
  verifyPdf,
  getAuditTrail,
  getFormEvidence,
  // Files signers attach (issue 41).
  getFormAttachment,
  exportDataSubject,
  eraseDataSubject,
  getBranding,
  updateBranding,
];
