import {
  compareDecimal,
  DEEPEST_STEP_PCT_LIMIT,
  type ErrorCode,
  type Exchange,
  ZCoinSettingsInput,
} from '@gridbot/contracts';
import {
  checkField,
  type FieldRule,
  integerInput,
  type Problem,
  problemOfIssue,
  wireText,
} from './validation';

/** The edit-token form as typed: text fields, the switch. */
export type SettingsDraft = {
  orderSize: string;
  stepPct: string;
  stepIncreasePct: string;
  maxTrades: string;
  dry: boolean;
};

export type SettingsField = Exclude<keyof SettingsDraft, 'dry'>;
type Field = SettingsField;
export type SettingsProblems = Record<Field, Problem | null>;

const FIELDS = ZCoinSettingsInput.shape;
const DECIMAL: FieldRule = { decimal: true };
/** The contract's one cross-field rule (the deepest averaging step) is reported on this field. */
const DEEPEST: FieldRule = { custom: { key: 'deepestStep', params: { max: DEEPEST_STEP_PCT_LIMIT } } };

/** The body of POST /portfolio/setting/edit exactly as the form sends it. */
export const settingsBody = (coin: string, draft: SettingsDraft, preview: boolean, exchange?: Exchange) => ({
  coin,
  ...(exchange ? { exchange } : {}),
  orderSize: wireText(draft.orderSize, DECIMAL),
  stepPct: wireText(draft.stepPct, DECIMAL),
  stepIncreasePct: wireText(draft.stepIncreasePct, DECIMAL),
  maxTrades: integerInput(draft.maxTrades.trim()),
  dry: draft.dry,
  preview,
});

/**
 * Each field through its field schema of ZCoinSettingsInput, then — once every field passes, since
 * the contract's cross-field rule assumes well-formed numbers — the whole body through the schema.
 */
export const settingsProblems = (coin: string, draft: SettingsDraft): SettingsProblems => {
  const problems: SettingsProblems = {
    orderSize: checkField(FIELDS.orderSize, draft.orderSize, DECIMAL),
    stepPct: checkField(FIELDS.stepPct, draft.stepPct, DECIMAL),
    stepIncreasePct: checkField(FIELDS.stepIncreasePct, draft.stepIncreasePct, DECIMAL),
    maxTrades: checkField(FIELDS.maxTrades, draft.maxTrades, {}, integerInput),
  };
  if (Object.values(problems).some((problem) => problem !== null)) return problems;
  const issue = ZCoinSettingsInput.safeParse(settingsBody(coin, draft, true)).error?.issues[0];
  if (!issue) return problems;
  const path = String(issue.path[0] ?? '');
  const field: Field = path in problems ? (path as Field) : 'stepIncreasePct';
  return { ...problems, [field]: problemOfIssue(issue, ZCoinSettingsInput, '', DEEPEST) };
};

/**
 * The exchange's minimum order for the market (its NOTIONAL filter, as the add-coin list reports
 * it): known on the client, so an order size below it is refused before the server does the same
 * (ORDER_BELOW_EXCHANGE_MIN, docs/grid.md#editing-settings).
 */
export const isBelowExchangeMin = (
  draft: SettingsDraft,
  minOrderUsdt: string | null | undefined,
): boolean => {
  const orderSize = wireText(draft.orderSize, DECIMAL);
  if (!minOrderUsdt || !/^\d+(\.\d+)?$/.test(orderSize)) return false;
  return compareDecimal(orderSize, minOrderUsdt) < 0;
};

/**
 * The market's MAX_NUM_ORDERS (as the add-coin list reports it): a purchase limit above it is
 * refused before the server does the same (MAX_TRADES_ABOVE_EXCHANGE_LIMIT, docs/grid.md#exchange-filters).
 */
export const isAboveExchangeOrderLimit = (
  draft: SettingsDraft,
  maxOpenOrders: number | null | undefined,
): boolean => {
  const maxTrades = integerInput(draft.maxTrades.trim());
  return typeof maxOpenOrders === 'number' && Number.isInteger(maxTrades) && maxTrades > maxOpenOrders;
};

/**
 * The field a refusal of the settings is about, so it is shown under that field. The licence
 * balance limit (Σ order size × purchase limit) is read separately: see `fieldsOfRefusal`.
 */
const REFUSAL_FIELD: Partial<Record<ErrorCode, Field>> = {
  ORDER_BELOW_EXCHANGE_MIN: 'orderSize',
  MAX_TRADES_ABOVE_EXCHANGE_LIMIT: 'maxTrades',
  // The deepest buy's drop is the step increase's doing, as the deepest-step rule reports it there.
  DEEPEST_BUY_BELOW_EXCHANGE_PRICE_LIMIT: 'stepIncreasePct',
};

/** Whether the draft raised a field above the saved settings (false while it is not a number). */
const raised = (draft: SettingsDraft, saved: SettingsDraft, field: 'orderSize' | 'maxTrades'): boolean => {
  if (field === 'maxTrades') {
    const [now, before] = [integerInput(draft.maxTrades.trim()), integerInput(saved.maxTrades.trim())];
    return Number.isInteger(now) && now > before;
  }
  const now = wireText(draft.orderSize, DECIMAL);
  return /^\d+(\.\d+)?$/.test(now) && compareDecimal(now, wireText(saved.orderSize, DECIMAL)) > 0;
};

/**
 * The fields a refusal is shown under. The licence balance limit is exceeded by what the draft
 * raised, the order size or the purchase limit (both when both went up); with neither raised
 * (another coin took the room), under the order size.
 */
export const fieldsOfRefusal = (code: string, draft: SettingsDraft, saved: SettingsDraft): Field[] => {
  if (code === 'LICENSE_BALANCE_LIMIT') {
    const causes = (['orderSize', 'maxTrades'] as const).filter((field) => raised(draft, saved, field));
    return causes.length > 0 ? causes : ['orderSize'];
  }
  const field = Object.hasOwn(REFUSAL_FIELD, code) ? REFUSAL_FIELD[code as ErrorCode] : undefined;
  return field ? [field] : [];
};
