import { listEvents } from '../../../domain/events/read-events.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'listEvents',
  handler: (s) => async (req, reply, p) => sendJson(reply, await listEvents(s.domain, p, req.query)),
});
