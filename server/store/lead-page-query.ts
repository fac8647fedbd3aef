// The inbox's page query for both engines, so SQLite and PostgreSQL filter and order alike (and a test
// can ask either engine how it would run it). Pages are keyset pages, newest first: (received_at, id)
// descending, the next page starting strictly after the last row shown, so two leads received in the
// same millisecond are neither skipped nor repeated and page 1000 costs what page 1 does.
//
// Which table leads the query decides which index serves it: a state filter (or spam only) walks
// deliveries' (state, received_at, lead_id) index; "not spam" with no filter of the lead's own walks
// deliveries' index of the leads that are not spam (received_at, lead_id); everything else walks one
// of leads' indexes (received_at, id), (source, …), (utm_campaign, …), (utm_source, …) or (email, …).
// SQLite's CROSS JOIN keeps that order; PostgreSQL reads it as an inner join and plans it from its
// statistics. The "not spam" term is written exactly as that index's WHERE, so both engines match it.
import type { LeadCursor, LeadQuery } from './inbox/inbox-store.ts';
import { containsPattern, readSearch } from './inbox/inbox-store.ts';
import { LEAD_COLUMNS } from './row-mapping.ts';

export type SqlDialect = 'sqlite' | 'postgres';

export type BuiltQuery = { readonly sql: string; readonly params: (string | number)[] };

export function buildLeadPageQuery(dialect: SqlDialect, query: LeadQuery, after: LeadCursor | undefined, limit: number): BuiltQuery {
  const params: (string | number)[] = [];
  const value = (param: string | number): string => {
    params.push(param);
    return dialect === 'sqlite' ? '?' : `$${params.length}`;
  };
  const search = readSearch(query.search);
  const byLeadIndex =
    query.source !== undefined ||
    query.campaign !== undefined ||
    query.utmSource !== undefined ||
    (search !== undefined && 'email' in search);
  const byDelivery = query.state !== undefined || query.spam === true || (query.spam === false && !byLeadIndex);
  const [keyTime, keyId] = byDelivery ? ['d.received_at', 'd.lead_id'] : ['l.received_at', 'l.id'];
  const where: string[] = [byDelivery ? 'l.id = d.lead_id' : 'd.lead_id = l.id'];

  if (query.state !== undefined) where.push(`d.state = ${value(query.state)}`);
  if (query.attempted !== undefined) where.push(query.attempted ? 'd.attempts > 0' : 'd.attempts = 0');
  if (query.spam === true) where.push(`d.state = 'spam'`);
  if (query.spam === false) where.push(`d.state <> 'spam'`);
  if (query.source !== undefined) where.push(`l.source = ${value(query.source)}`);
  if (query.campaign !== undefined) where.push(`l.utm_campaign = ${value(query.campaign)}`);
  if (query.utmSource !== undefined) where.push(`l.utm_source = ${value(query.utmSource)}`);
  if (query.receivedFrom !== undefined) where.push(`${keyTime} >= ${value(query.receivedFrom)}`);
  if (query.receivedBefore !== undefined) where.push(`${keyTime} < ${value(query.receivedBefore)}`);
  if (search !== undefined && 'email' in search) where.push(`l.email = ${value(search.email)}`);
  if (search !== undefined && 'part' in search) {
    // SQLite's LIKE ignores the case of ASCII letters; PostgreSQL's ILIKE ignores case in any script.
    const like = dialect === 'sqlite' ? 'LIKE' : 'ILIKE';
    const pattern = containsPattern(search.part);
    where.push(
      `(l.name ${like} ${value(pattern)} ESCAPE '\\' OR l.email ${like} ${value(pattern)} ESCAPE '\\'` +
        ` OR l.company ${like} ${value(pattern)} ESCAPE '\\')`,
    );
  }
  if (after !== undefined) where.push(`(${keyTime}, ${keyId}) < (${value(after.receivedAt)}, ${value(after.id)})`);

  const from = byDelivery ? 'deliveries d CROSS JOIN leads l' : 'leads l CROSS JOIN deliveries d';
  // One row more than the page shows tells whether another page follows.
  const sql = `SELECT ${LEAD_COLUMNS} FROM ${from} WHERE ${where.join(' AND ')}
    ORDER BY ${keyTime} DESC, ${keyId} DESC LIMIT ${value(limit + 1)}`;
  return { sql, params };
}
