/** docs/product.md#validation: Telegram popup limits. */
export const POPUP_LIMITS = {
  titleMax: 64,
  messageMin: 1,
  messageMax: 256,
  buttonsMax: 3,
  buttonIdMax: 64,
  buttonTextMin: 1,
  buttonTextMax: 64,
} as const;

export type PopupButtonParams = {
  id: string;
  type?: 'default' | 'destructive' | 'ok' | 'cancel' | 'close';
  text?: string;
};
export type PopupParams = { title?: string; message: string; buttons?: PopupButtonParams[] };

/** Problems with popup parameters, empty when Telegram would accept them. */
export const popupProblems = (params: PopupParams): string[] => {
  const problems: string[] = [];
  const { title = '', message, buttons = [] } = params;
  if (title.length > POPUP_LIMITS.titleMax) problems.push(`title longer than ${POPUP_LIMITS.titleMax}`);
  if (message.length < POPUP_LIMITS.messageMin || message.length > POPUP_LIMITS.messageMax) {
    problems.push(`message must have ${POPUP_LIMITS.messageMin} to ${POPUP_LIMITS.messageMax} characters`);
  }
  if (buttons.length > POPUP_LIMITS.buttonsMax) problems.push(`more than ${POPUP_LIMITS.buttonsMax} buttons`);
  for (const button of buttons) {
    if (button.id.length > POPUP_LIMITS.buttonIdMax)
      problems.push(`button id longer than ${POPUP_LIMITS.buttonIdMax}`);
    const needsText = button.type === undefined || button.type === 'default' || button.type === 'destructive';
    const text = button.text ?? '';
    if (needsText && (text.length < POPUP_LIMITS.buttonTextMin || text.length > POPUP_LIMITS.buttonTextMax)) {
      problems.push(
        `button text must have ${POPUP_LIMITS.buttonTextMin} to ${POPUP_LIMITS.buttonTextMax} characters`,
      );
    }
  }
  return problems;
};

/** Cuts texts to the limits (with an ellipsis) so a long translation never breaks a popup. */
export const fitPopup = (params: PopupParams): PopupParams => {
  const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
  return {
    ...(params.title ? { title: cut(params.title, POPUP_LIMITS.titleMax) } : {}),
    message: cut(params.message || ' ', POPUP_LIMITS.messageMax),
    buttons: (params.buttons ?? []).slice(0, POPUP_LIMITS.buttonsMax).map((button) => ({
      ...button,
      id: button.id.slice(0, POPUP_LIMITS.buttonIdMax),
      ...(button.text !== undefined ? { text: cut(button.text, POPUP_LIMITS.buttonTextMax) } : {}),
    })),
  };
};

/** docs/product.md#validation: colours are #rrggbb. */
export const isHexColor = (value: string): boolean => /^#[0-9a-f]{6}$/i.test(value);
