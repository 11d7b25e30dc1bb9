// --token-auth-file (kube's tokenfile authenticator): a CSV file of
// `token,user,uid[,"group1,group2,..."]`, read once at start as Go's encoding/csv
// reads it (quoted fields, any number of columns per line, blank lines skipped).
// A line with fewer than three columns stops the start; an empty token is skipped;
// a repeated token keeps its last line. `Authorization: Bearer <token>` of a listed
// token authenticates as its user; any other token is left to the other
// authenticators.
import { parse } from 'csv-parse/sync';
import type { UserInfo } from '../../schema/user.js';
import { bearerToken, type Authenticator } from './authenticator.js';

export class TokenFileError extends Error {
  override readonly name = 'TokenFileError';
}

/** The users of a token file's text, by token; throws TokenFileError naming the file. */
export function parseTokenFile(text: string, path: string): ReadonlyMap<string, UserInfo> {
  let records: string[][];
  try {
    records = parse(text, { relax_column_count: true, skip_empty_lines: true, bom: true }) as string[][];
  } catch (err) {
    throw new TokenFileError(`token file '${path}': ${(err as Error).message}`);
  }
  const tokens = new Map<string, UserInfo>();
  for (const record of records) {
    if (record.length < 3) throw new TokenFileError(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    const [token, username, uid, groups] = record as [string, string, string, string | undefined];
    if (token === '') continue;
    tokens.set(token, { username, uid, groups: groups === undefined ? [] : groups.split(',') });
  }
  return tokens;
}


export function createTokenFileAuthenticator(tokens: ReadonlyMap<string, UserInfo>): Authenticator {
  return async (req) => {
    const token = bearerToken(req.headers);
    if (token === undefined) return undefined;
    const user = tokens.get(token);
    return user === undefined ? undefined : { user };
  };
}
