import { getEvent } from '../../../domain/events/read-events.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'getEvent',
  handler: (s) => async (req, reply, p) => sendJson(reply, await getEvent(s.domain, p, req.params.event_id)),
});
