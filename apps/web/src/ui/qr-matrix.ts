import qrcode from 'qrcode-generator';

/** Light modules around the code that scanners need to find it (the QR standard asks for 4). */
export const QUIET_ZONE = 4;

export type QrMatrix = {
  /** Modules per side, quiet zone included: the SVG's viewBox is size × size. */
  size: number;
  /** The dark modules as one SVG path, one rectangle per horizontal run. */
  path: string;
  /** Dark modules in the code, for checks. */
  dark: number;
};

/**
 * A QR code of `text` drawn as a path. Error correction H (30 %): the code stays readable with
 * the coin's mark laid over its middle.
 */
export const qrMatrix = (text: string, quietZone = QUIET_ZONE): QrMatrix => {
  const qr = qrcode(0, 'H');
  qr.addData(text);
  qr.make();
  const count = qr.getModuleCount();
  const runs: string[] = [];
  let dark = 0;
  for (let row = 0; row < count; row++) {
    let col = 0;
    while (col < count) {
      if (!qr.isDark(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < count && qr.isDark(row, col)) col++;
      dark += col - start;
      runs.push(`M${start + quietZone} ${row + quietZone}h${col - start}v1h${start - col}z`);
    }
  }
  return { size: count + 2 * quietZone, path: runs.join(''), dark };
};
