/** How often the open panel and what it shows refresh themselves (not in the background). */
export const PANEL_REFRESH_MS = 5000;
