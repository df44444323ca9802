import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanFilename, imageProblem, sniffAttachmentType } from '../../src/domain/signing/attachments/attachment-file.js';
import { bombPng as bombPngOf, strokePng } from '../signing/support.js';

// What a file a signer attaches is (issue 41): known by its first bytes, never its name; an image's
// size read from its header and bounded; a PNG whose pixel data would unpack past its declared size
// (a decompression bomb) refused; the file's name made safe to show and to put in a header.

const png = (w = 40, h = 20): Buffer => Buffer.from(strokePng(w, h).split(',')[1]!, 'base64');

/** A PNG that declares 1×1 pixels and carries 50 MB of zeros in its data. */
const bombPng = (): Buffer => bombPngOf(1, 1, 50 * 1024 * 1024);

describe('attachment files', () => {
  it('knows PDF, PNG and JPEG by content only', () => {
    assert.equal(sniffAttachmentType(png()), 'image/png');
    assert.equal(sniffAttachmentType(Buffer.from('ffd8ffe0', 'hex')), 'image/jpeg');
    assert.equal(sniffAttachmentType(Buffer.from('%PDF-1.7\n')), 'application/pdf');
    assert.equal(sniffAttachmentType(Buffer.from('\n\n%PDF-1.4\n')), 'application/pdf', 'a header after a little junk, as readers allow');
    assert.equal(sniffAttachmentType(Buffer.from('GIF89a')), undefined);
    assert.equal(sniffAttachmentType(Buffer.from('PK\u0003\u0004 not a pdf')), undefined);
  });

  it('bounds images: a readable PNG passes; a bomb, an oversized or a cut one does not', () => {
    assert.equal(imageProblem('image/png', png()), undefined);
    assert.match(imageProblem('image/png', bombPng()) ?? '', /does not unpack to its declared size/);
    const huge = png();
    huge.writeUInt32BE(30_000, 16);
    assert.match(imageProblem('image/png', huge) ?? '', /30000×20 pixels/);
    assert.equal(imageProblem('image/png', png().subarray(0, 20)), 'is not a readable image');
    const jpeg = Buffer.from('ffd8ffe000104a46494600010100000100010000ffc0000b080010002001011100ffd9', 'hex');
    assert.equal(imageProblem('image/jpeg', jpeg), undefined);
    assert.equal(imageProblem('image/jpeg', Buffer.from('ffd8ffd9', 'hex')), 'is not a readable image');
  });

  it("cleans the file's name: the last segment, no controls or quotes, a default by type", () => {
    assert.equal(cleanFilename(encodeURIComponent('C:\\Users\\ada\\bill "March".pdf'), 'application/pdf'), 'bill March.pdf');
    assert.equal(cleanFilename(encodeURIComponent('Счёт\u0000.png'), 'image/png'), 'Счёт.png');
    assert.equal(cleanFilename(undefined, 'image/jpeg'), 'attachment.jpg');
    assert.equal(cleanFilename('%E0%A4%A', 'image/png'), '%E0%A4%A', 'a broken escape is kept as written');
    assert.equal([...cleanFilename('a'.repeat(500), 'image/png')].length, 200);
  });
});
