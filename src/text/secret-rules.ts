/**
 * The secret shapes redaction knows, in the order their spans are looked for (the order does not change
 * the result: spans are merged). Each rule is linear in the text; `secret-scan.ts` says how.
 */
import type { SecretRule } from './secret-scan.js';
import { TOKEN_RULES } from './secret-tokens.js';
import { SERVICE_RULES } from './secret-services.js';
import { VALUE_RULES } from './secret-values.js';

/** Every rule. */
export const SECRET_RULES: readonly SecretRule[] = [...TOKEN_RULES, ...VALUE_RULES, ...SERVICE_RULES];
