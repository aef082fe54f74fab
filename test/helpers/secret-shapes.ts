/**
 * Secrets for the redaction tests, each as it appears in text (`text`) and the part of it that must never
 * be shown (`hidden`), and the check that output shows none of it: no 8 characters in a row of the hidden
 * part, so a key cut in half is caught as surely as a whole one.
 */

/** A secret as it appears in text, and what of it must be redacted. */
export interface SecretShape {
  readonly name: string;
  readonly text: string;
  readonly hidden: string;
}

const shape = (name: string, text: string, hidden = text): SecretShape => ({ name, text, hidden });

/** Every secret shape redaction knows, with realistic values (made up). */
export const SECRET_SHAPES: readonly SecretShape[] = [
  shape('OpenAI key', 'sk-proj-Xq7vR2mK9pL4wN8zT1cY6bH3jF5gD0sA'),
  shape('Anthropic key', 'sk-ant-api03-Zt8Kq2Lm5Np7Rs4Vw1Xy9Bc3Df6Gh0Jk-Qa2Ws4Ed'),
  shape('Stripe secret key', 'sk_live_51HqLy2KZvKYlo2C8dF4jW7nX9pQ3rT'),
  shape('Stripe restricted key', 'rk_live_51HqLy2Ab7Cd9Ef2Gh4Ij6Kl8Mn0Pq'),
  shape('GitHub token', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a'),
  shape('GitHub fine-grained token', 'github_pat_11ABCDEFG0Qx7Rz3Wv9Ty5Up1Io_8Kj2Hg4Fd6Sa0Lm'),
  shape('Slack token', 'xoxb-2048-1234567890-Qw7Er5Ty3Ui1Op9As'),
  shape('AWS access key id', 'AKIAIOSFODNN7EXAMPLE'),
  shape('AWS secret key after a space', 'aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'),
  shape('AWS secret key, bare', 'Kq8Zt2Wv/Xy4Lm6Np+Rs1Bc3Df5Gh7Jk9Qa0Ws2E'),
  shape('Google API key ending in -', 'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBW-'),
  shape('JSON Web Token', 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'),
  shape('Bearer credential', 'Authorization: Bearer 9f8e7d6c5b4a3210fedcba9876543210abcd', '9f8e7d6c5b4a3210fedcba9876543210abcd'),
  shape('password with spaces and commas', 'password: "correct horse, battery staple"', 'correct horse, battery staple'),
  shape('URL password', 'postgres://admin:Pr1vatePassw0rd@db.internal:5432/app', 'Pr1vatePassw0rd'),
  shape('Hugging Face token', 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'),
  shape('GitLab token', 'glpat-Xy9Zw8Vu7Ts6Rq5Po4Nm'),
  shape('SendGrid key', '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'),
  shape('npm token', 'npm_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2'),
  shape('private key', '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq0Zx9Yw8Vu7Ts6\n-----END RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEA7bq0Zx9Yw8Vu7Ts6'),
];

/** Characters in a row of a hidden part that count as shown. */
export const SHOWN_RUN = 8;

/** The runs of {@link SHOWN_RUN} characters of `hidden`, in order, each with its JSON-escaped form. */
const runsOf = (hidden: string): (readonly [string, string])[] =>
  Array.from({ length: Math.max(0, hidden.length - SHOWN_RUN + 1) }, (_, i) => {
    const part = hidden.slice(i, i + SHOWN_RUN);
    return [part, JSON.stringify(part).slice(1, -1)] as const;
  });

/** Outputs shorter than this are searched run by run; longer ones once for every shape's runs. */
const ONE_PASS_FROM = 4096;

/** Every run of {@link SECRET_SHAPES} looked for, as it is and JSON-escaped, by length (worked out once). */
let shapeRuns: Map<number, Set<string>> | null = null;
/** The last long output read and the runs of {@link SECRET_SHAPES} it shows: callers ask every shape of one output in turn. */
let lastOutput: string | null = null;
let lastShown = new Set<string>();

/**
 * The runs of every shape of {@link SECRET_SHAPES} that `output` holds, found in one pass of it for each
 * run length (asking each of the ~1,200 runs in turn read a 1 MB `explain --json` 1,200 times: 0.6 CPU-s).
 */
function runsShown(output: string): Set<string> {
  if (output === lastOutput) return lastShown;
  if (shapeRuns === null) {
    shapeRuns = new Map();
    for (const shape of SECRET_SHAPES) {
      for (const run of runsOf(shape.hidden).flat()) {
        const same = shapeRuns.get(run.length) ?? new Set<string>();
        shapeRuns.set(run.length, same.add(run));
      }
    }
  }
  const shown = new Set<string>();
  for (const [length, runs] of shapeRuns) {
    for (let i = 0; i + length <= output.length; i++) {
      const window = output.slice(i, i + length);
      if (runs.has(window)) shown.add(window);
    }
  }
  lastOutput = output;
  lastShown = shown;
  return shown;
}

/** The first run of {@link SHOWN_RUN} characters of `s.hidden` that `output` shows (JSON-escaped or not), or null. */
export function shownPart(output: string, s: SecretShape): string | null {
  const shown = output.length >= ONE_PASS_FROM && SECRET_SHAPES.includes(s) ? runsShown(output) : null;
  for (const [part, escaped] of runsOf(s.hidden)) {
    if (shown === null ? output.includes(part) || output.includes(escaped) : shown.has(part) || shown.has(escaped)) return part;
  }
  return null;
}
