import { prepareEraseSubject } from '../../../domain/data-subjects/erase-subject.js';
import { jsonAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';

export default defineWriteRoute({
  operationId: 'eraseDataSubject',
  prepare: (s) => async (req, p) => prepareEraseSubject(s.domain, p, req.body, req.apiKeyId ?? 'api'),
  answer: (view) => jsonAnswer(200, view),
});
