import { en, type Messages } from './en';

// Replaced by the Russian texts in this change.
export const ru: Messages = en;
