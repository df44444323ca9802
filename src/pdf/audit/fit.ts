/** The largest size of `image` that fits `box` with its aspect kept, centred in it (same coordinates as the box). */
export function fitCentred(image: { width: number; height: number }, box: { x: number; y: number; width: number; height: number }, padding: number) {
  const scale = Math.max(0, Math.min((box.width - 2 * padding) / image.width, (box.height - 2 * padding) / image.height));
  const width = image.width * scale;
  const height = image.height * scale;
  return { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height };
}
