import { en, type Messages } from './en';

// Replaced by the Chinese texts in this change.
export const cn: Messages = en;
