/** A QR code of `text` as an SVG `data:` URL (the dashboard's policy allows `img-src data:`). */
export async function qrCodeDataUrl(text: string): Promise<string> {
  // Loaded when a code is drawn (setting up two-factor sign-in): qrcode and pngjs are ~60 CommonJS files
  // every command and every start would otherwise load (issue 36 item 3).
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
