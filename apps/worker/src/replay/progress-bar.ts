/** A one-line progress bar on a TTY stream; updates are throttled so a fast replay is not slowed by redraws. */
export const createProgressBar = (write: (text: string) => void, label: string) => {
  const width = 30;
  let lastPercent = -1;
  return {
    update(fraction: number): void {
      const percent = Math.floor(Math.min(1, Math.max(0, fraction)) * 100);
      if (percent === lastPercent) return;
      lastPercent = percent;
      const filled = Math.round((percent / 100) * width);
      write(
        `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(percent).padStart(3)} %`,
      );
    },
    done(): void {
      if (lastPercent >= 0) write('\r\x1b[2K');
    },
  };
};
