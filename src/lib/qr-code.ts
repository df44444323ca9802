import QRCode from 'qrcode';

/** A QR code of `text` as an SVG `data:` URL (the dashboard's policy allows `img-src data:`). */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
