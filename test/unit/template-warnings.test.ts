import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_FIELDS_EDITED, NO_FIELDS_UPLOADED, editedWarnings, importWarnings } from '../../src/domain/templates/template-warnings.js';
import type { FieldDef } from '../../src/pdf/field.js';

const FIELD: FieldDef = { name: 'client', type: 'text', required: false, signer: 1, page: 1, x: 72, y: 90, width: 250, height: 18 };
const SCRIPTS = 'Removed active content so that the document cannot change itself or contact other servers: 2 scripts.';
const BUTTONS = 'Skipped 1 push button (such as Print or Reset): buttons hold no data.';

describe('template warnings follow the current fields', () => {
  it("an upload warns of an empty field list after the file's own warnings", () => {
    assert.deepEqual(importWarnings([SCRIPTS], []), [SCRIPTS, NO_FIELDS_UPLOADED]);
    assert.deepEqual(importWarnings([SCRIPTS], [FIELD]), [SCRIPTS]);
  });

  it("an edit keeps the file's warnings in order and drops or rewords the empty-list one", () => {
    assert.deepEqual(editedWarnings([SCRIPTS, NO_FIELDS_UPLOADED, BUTTONS], [FIELD]), [SCRIPTS, BUTTONS]);
    assert.deepEqual(editedWarnings([SCRIPTS, NO_FIELDS_UPLOADED], []), [SCRIPTS, NO_FIELDS_EDITED]);
    assert.deepEqual(editedWarnings([NO_FIELDS_EDITED], [FIELD]), []);
    assert.deepEqual(editedWarnings([], []), [NO_FIELDS_EDITED]);
  });
});
