import { prepareCreateBulkSend } from '../../../domain/bulk/create-bulk-send.js';
import { AppError } from '../../../domain/errors.js';
import { valueAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';
import { bulkQuota, rowShape } from './bulk-checks.js';
import { readBulkCsv } from './bulk-upload.js';

export default defineWriteRoute({
  operationId: 'createBulkSend',
  // JSON rows, or a CSV as multipart/form-data (its route scope has the multipart parser).
  multipart: true,
  prepare: (s) => {
    const shape = rowShape(s.openapi);
    return async (req, p, reply) => {
      const checks = { shape, quota: bulkQuota(s.limits, p.accountId) };
      if (req.isMultipart()) {
        const upload = await readBulkCsv(req, reply);
        return upload && prepareCreateBulkSend(s.domain, p, upload, checks);
      }
      // A JSON body was validated against CreateBulkSendRequest; an empty request has none.
      if (req.body === undefined || req.body === null) throw new AppError('parameter_missing', "Missing required parameter 'template_id'.", 'template_id');
      return prepareCreateBulkSend(s.domain, p, { template_id: req.body.template_id, rows: req.body.rows }, checks);
    };
  },
  answer: (bulk) => valueAnswer(202, bulk),
});
