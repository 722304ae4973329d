// REST calls under /api, with the player token kept in localStorage.

const KEY = 'kozyr.player';

export function me() {
  try {
    const p = JSON.parse(localStorage.getItem(KEY));
    return p && p.token ? p : null;
  } catch {
    return null;
  }
}

export function setMe(p) { localStorage.setItem(KEY, JSON.stringify(p)); }

export async function req(method, path, body) {
  const headers = { Accept: 'application/json' };
  const who = me();
  if (who) headers['X-Player-Token'] = who.token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch('/api' + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { /* no body */ }
  if (!res.ok) {
    const err = new Error((data && data.detail) || res.statusText || String(res.status));
    err.status = res.status;
    err.code = data && data.code;
    throw err;
  }
  return data;
}

// The player with this name: created on first use, renamed when the name changes.
// A token the server no longer knows is forgotten (and, given a name, replaced).
export async function ensurePlayer(name) {
  const who = me();
  if (who) {
    if (!name || name === who.name) {
      try {
        const p = await req('GET', '/players/me');
        setMe({ ...who, name: p.name, id: p.id });
        return me();
      } catch (e) {
        if (e.status !== 401) throw e;
      }
    } else {
      try {
        const p = await req('PATCH', '/players/me', { name });
        setMe({ ...who, name: p.name });
        return me();
      } catch (e) {
        if (e.status !== 401) throw e;
      }
    }
    localStorage.removeItem(KEY);
  }
  if (!name) return null;
  const p = await req('POST', '/players', { name });
  setMe({ id: p.id, name: p.name, token: p.token });
  return me();
}

const enc = encodeURIComponent;

export const api = {
  variants: () => req('GET', '/variants'),
  createRoom: (variant, seats, options, takeoverSeconds, extra = {}) => req('POST', '/rooms', {
    variant, seats, options, take_seat: true, takeover_seconds: takeoverSeconds ?? undefined, ...extra }),
  room: (code) => req('GET', `/rooms/${enc(code)}`),
  takeSeat: (code, seat) => req('POST', `/rooms/${enc(code)}/seats/${seat}`),
  leaveSeat: (code, seat) => req('DELETE', `/rooms/${enc(code)}/seats/${seat}`),
  bots: () => req('GET', '/bots'),
  seatBot: (code, seat, level) => req('POST', `/rooms/${enc(code)}/seats/${seat}/bot`, { level }),
  removeBot: (code, seat) => req('DELETE', `/rooms/${enc(code)}/seats/${seat}/bot`),
  setTakeover: (code, seconds) => req('PATCH', `/rooms/${enc(code)}`, { takeover_seconds: seconds }),
  // the host's room settings (takeover_seconds, pace, move_seconds, on_deadline, vacation_days)
  setRoom: (code, body) => req('PATCH', `/rooms/${enc(code)}`, body),
  // away until an ISO time (null: back now); GET /players/me says away_until
  setAway: (until) => req('PUT', '/players/me/away', { until }),
  myself: () => req('GET', '/players/me'),
  start: (code) => req('POST', `/rooms/${enc(code)}/start`),
  rematch: (code) => req('POST', `/rooms/${enc(code)}/rematch`),
  chat: (code) => req('GET', `/rooms/${enc(code)}/chat`),
  roomMatches: (code) => req('GET', `/rooms/${enc(code)}/matches`),
  myMatches: () => req('GET', '/players/me/matches?limit=20'),
  match: (id) => req('GET', `/matches/${enc(id)}`),
  // where every card is after every step of a finished deal (the engine's deal_positions)
  dealPositions: (id, n) => req('GET', `/matches/${enc(id)}/deals/${Number(n)}/positions`),
  qrPath: (code) => `/api/rooms/${enc(code)}/qr.svg`,
  // clubs (README "Clubs"): the page's data, membership, invite links, presets, seasons
  myClubs: () => req('GET', '/players/me/clubs'),
  createClub: (body) => req('POST', '/clubs', body),
  listedClubs: (q) => req('GET', `/clubs?limit=20${q ? `&q=${enc(q)}` : ''}`),
  club: (id) => req('GET', `/clubs/${Number(id)}`),
  changeClub: (id, body) => req('PATCH', `/clubs/${Number(id)}`, body),
  clubInvite: (token) => req('GET', `/club-invites/${enc(token)}`),
  clubInviteQr: (token) => `/api/club-invites/${enc(token)}/qr.svg`,
  joinClub: (token) => req('POST', `/club-invites/${enc(token)}/join`),
  askToJoin: (id) => req('POST', `/clubs/${Number(id)}/join`),
  leaveClub: (id) => req('POST', `/clubs/${Number(id)}/leave`),
  transferClub: (id, player) => req('POST', `/clubs/${Number(id)}/transfer`, { player }),
  approveMember: (id, player) => req('POST', `/clubs/${Number(id)}/members/${Number(player)}/approve`),
  removeMember: (id, player) => req('DELETE', `/clubs/${Number(id)}/members/${Number(player)}`),
  setRole: (id, player, role) => req('PUT', `/clubs/${Number(id)}/members/${Number(player)}/role`, { role }),
  clubInvites: (id) => req('GET', `/clubs/${Number(id)}/invites`),
  newClubInvite: (id) => req('POST', `/clubs/${Number(id)}/invites`),
  revokeClubInvite: (id, invite) => req('DELETE', `/clubs/${Number(id)}/invites/${Number(invite)}`),
  createPreset: (id, body) => req('POST', `/clubs/${Number(id)}/presets`, body),
  deletePreset: (id, preset) => req('DELETE', `/clubs/${Number(id)}/presets/${Number(preset)}`),
  roomFromPreset: (preset) => req('POST', '/rooms', { preset, take_seat: true }),
  createSeason: (id, body) => req('POST', `/clubs/${Number(id)}/seasons`, body),
  closeSeason: (id, season) => req('POST', `/clubs/${Number(id)}/seasons/${Number(season)}/close`),
  // a file of the API (a season's table as CSV, an event's .ics): the routes want the token
  // in a header, so it is fetched here, as a Blob
  file: async (path) => {
    const res = await fetch(path, { headers: { 'X-Player-Token': (me() || {}).token || '' } });
    if (!res.ok) { const err = new Error(res.statusText); err.status = res.status; throw err; }
    return res.blob();
  },
  seasonCsv: (id, season) => api.file(`/api/clubs/${Number(id)}/seasons/${Number(season)}/table.csv`),
};
