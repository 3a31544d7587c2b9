/**
 * Ten years of a busy broker in PostgreSQL (issue 26, item 2), generated inside the database with
 * INSERT … SELECT generate_series, so it takes minutes, not hours, on a small machine:
 * 5,000 listings, 60,000 leads (status histories and notes: ≈ 600,000 timeline entries), 20,000
 * visits, ≈ 5,000,000 page-view rows, the e-mails about the leads and visits, the audit trail,
 * buyer profiles, proposals and deals. Dates spread over the ten years with more activity in the
 * recent ones; old leads closed (converted or lost), recent ones still open; neighbourhoods of
 * Natal and Parnamirim; prices in the schema's units (listings in reais, proposals and deals in
 * cents). Random but reproducible (setseed).
 *
 *   createdb -h 127.0.0.1 -U postgres h_decade_bench
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_decade_bench npx tsx bench/decade-data.ts
 *
 * The database is migrated first and must hold no leads (a fresh one). bench/decade.bench.ts
 * calls fillDecade itself when its database is empty.
 */
import { fileURLToPath } from "node:url";
import pg from "pg";
import { migrateDatabase, openPostgres } from "~/db/client.server";

export const DECADE = {
  listings: 5_000,
  leads: 60_000,
  visits: 20_000,
  years: 10,
} as const;

const NATAL = [
  "Ponta Negra",
  "Capim Macio",
  "Lagoa Nova",
  "Tirol",
  "Petrópolis",
  "Candelária",
  "Neópolis",
  "Barro Vermelho",
  "Lagoa Seca",
  "Areia Preta",
  "Pitimbu",
  "Nova Descoberta",
  "Alecrim",
  "Cidade Alta",
  "Ribeira",
  "Mãe Luiza",
  "Planalto",
  "Potengi",
  "Redinha",
  "Ponta Negra",
];
const PARNAMIRIM = ["Nova Parnamirim", "Cidade Verde", "Emaús", "Cohabinal", "Centro", "Liberdade", "Parque das Árvores", "Nova Parnamirim"];
const FIRST = [
  "Ana",
  "Bruno",
  "Carla",
  "Daniel",
  "Eduarda",
  "Felipe",
  "Gabriela",
  "Henrique",
  "Isabela",
  "João",
  "Karina",
  "Lucas",
  "Mariana",
  "Nathan",
  "Olívia",
  "Pedro",
  "Queila",
  "Rafael",
  "Sofia",
  "Thiago",
  "Úrsula",
  "Vinícius",
  "Wesley",
  "Yasmin",
  "Francisco",
  "Maria",
  "José",
  "Antônia",
  "Raimundo",
  "Luíza",
];
const LAST = [
  "Silva",
  "Souza",
  "Oliveira",
  "Santos",
  "Lima",
  "Pereira",
  "Costa",
  "Ferreira",
  "Rodrigues",
  "Almeida",
  "Nascimento",
  "Medeiros",
  "Dantas",
  "Bezerra",
  "Fernandes",
  "Cavalcanti",
  "Galvão",
  "Maia",
  "Freire",
  "Araújo",
];
const STAFF = ["Ana Souza", "Carlos Medeiros", "Juliana Dantas", "Rodrigo Galvão", "Patrícia Bezerra"];
const NOTES = [
  "Ligou pedindo mais fotos da área de lazer.",
  "Quer visitar no sábado pela manhã.",
  "Enviei a ficha do imóvel por WhatsApp.",
  "Tem carta de crédito aprovada na Caixa.",
  "Vai vender o apartamento atual para dar de entrada.",
  "Pediu desconto à vista; levar ao proprietário.",
  "Prefere andar alto, nascente.",
  "Não atendeu; tentar de novo amanhã.",
  "Gostou da localização, achou o condomínio caro.",
  "Vai conversar com a esposa e retorna na semana que vem.",
  "Perguntou sobre aceitar FGTS.",
  "Quer imóvel perto da escola dos filhos.",
];
const MESSAGES = [
  "Olá, tenho interesse neste imóvel. Ainda está disponível?",
  "Procuro apartamento de 3 quartos, até R$ 450 mil, perto da praia.",
  "Gostaria de agendar uma visita no fim de semana.",
  "Aceita financiamento? Tenho FGTS para a entrada.",
  "Busco casa em condomínio fechado com quintal para os cachorros.",
  "Quero alugar por um ano, mobiliado se possível.",
];
const LOST = ["Preço", "Localização", "Comprou com outro corretor", "Desistiu", "Financiamento negado", "Sem resposta", "Outro"];

const arr = (values: readonly string[]) => `array[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(",")}]::text[]`;
/** A stable pseudo-random number in [0, 1) from an integer and a salt (reproducible, unlike random()). */
const h = (expr: string, salt: number) => `(((hashint4((${expr})::int # ${salt}) & 2147483647)::float8) / 2147483648.0)`;

/** Each step: a label and its SQL; the temporary gen_* tables carry the numbering that links the rows. */
function steps(): [string, string][] {
  const hoods = arr([...NATAL, ...PARNAMIRIM]);
  return [
    [
      "listings",
      `create temporary table gen_props as
       select n, gen_random_uuid() as id,
         (now() - make_interval(days => (3650 * power(${h("n", 11)}, 1.3))::int)) as created_at,
         ${h("n", 12)} as r_status, ${h("n", 13)} as r_price,
         (array['apartamento','apartamento','apartamento','casa','casa','terreno','ponto_comercial'])[1 + (n % 7)] as type,
         case when n % 4 = 0 then 'aluguel' else 'venda' end as purpose,
         1 + (hashint4(n # 14) & 2147483647) % ${NATAL.length + PARNAMIRIM.length} as hood
       from generate_series(1, ${DECADE.listings}) as n;
       insert into properties (id, codigo, title, description, type, purpose, status, featured, price, area, bedrooms, bathrooms,
         parking_spaces, neighborhood, city, created_at, updated_at, features, condo_fee, accepts_financing)
       select id, 'NT-' || lpad(n::text, 5, '0'),
         initcap(replace(type, '_', ' ')) || ' ' || case when purpose = 'venda' then 'à venda' else 'para alugar' end || ' em ' || (${hoods})[hood],
         'Imóvel bem localizado em ' || (${hoods})[hood] || ', perto de comércio, escolas e da praia. Documentação em dia.',
         type, purpose,
         case
           when created_at < now() - interval '180 days' and r_status < 0.85 then case when purpose = 'venda' then 'vendido' else 'alugado' end
           when r_status > 0.97 then 'em_negociacao'
           when created_at >= now() - interval '180 days' and r_status < 0.15 then case when purpose = 'venda' then 'vendido' else 'alugado' end
           else 'disponivel' end,
         n % 50 = 0,
         case when purpose = 'venda' then round((150000 + r_price * r_price * 2350000)::numeric, -3) else round((900 + r_price * 11000)::numeric, -1) end,
         round((35 + r_price * 400)::numeric, 2),
         case when type in ('terreno','ponto_comercial') then null else 1 + (n % 4) end,
         case when type = 'terreno' then null else 1 + (n % 3) end,
         case when type = 'terreno' then null else n % 4 end,
         (${hoods})[hood], case when hood > ${NATAL.length} then 'Parnamirim' else 'Natal' end,
         created_at, created_at + interval '2 days',
         case n % 4 when 0 then array['piscina','varanda','academia'] when 1 then array['varanda'] when 2 then array['portaria_24h','elevador'] else '{}' end,
         case when type = 'apartamento' then 300 + (n % 12) * 100 end,
         case when purpose = 'venda' then n % 3 <> 0 end
       from gen_props`,
    ],
    [
      "listing status history",
      `insert into property_status_events (property_id, at, from_status, to_status, kind)
       select id, created_at, null, 'disponivel', 'created' from gen_props;
       insert into property_status_events (property_id, at, from_status, to_status, kind)
       select p.id, least(now(), g.created_at + make_interval(days => 30 + (g.n * 37) % 700)), 'disponivel', p.status, 'status'
       from properties p join gen_props g on g.id = p.id where p.status <> 'disponivel'`,
    ],
    [
      "page views",
      // One row per listing and day it was online: from its creation until it closed (or today).
      `insert into property_views (property_id, day, views)
       select g.id, d::date, 1 + (hashint4(g.n # (d::date - date '2000-01-01')) & 2147483647) % 25
       from gen_props g join properties p on p.id = g.id,
         generate_series(g.created_at::date,
           least(current_date, case when p.status in ('vendido','alugado') then (g.created_at + make_interval(days => 30 + (g.n * 37) % 700))::date + 900 else current_date end),
           interval '1 day') as d`,
    ],
    [
      "monthly page views",
      // The roll-up migration 0023's trigger keeps (triggers are off while this fills the tables).
      `insert into property_views_monthly (property_id, month, views)
       select property_id, date_trunc('month', day)::date, sum(views)::int from property_views group by 1, 2`,
    ],
    [
      "leads",
      `create temporary table gen_leads as
       select n, gen_random_uuid() as id,
         (now() - make_interval(secs => (86400.0 * 3650 * power(${h("n", 21)}, 1.35))))::timestamptz as created_at,
         ${h("n", 22)} as r_status,
         1 + (hashint4(n # 23) & 2147483647) % ${FIRST.length} as first,
         1 + (hashint4(n # 24) & 2147483647) % ${LAST.length} as last,
         -- One in ten comes back: the same phone as an earlier lead ("the same person").
         case when n > 1000 and n % 10 = 0 then n - 997 else n end as person
       from generate_series(1, ${DECADE.leads}) as n;
       alter table gen_leads add column status text, add column age_days float8;
       update gen_leads set age_days = extract(epoch from now() - created_at) / 86400,
         status = case
           when now() - created_at > interval '180 days' then case when r_status < 0.18 then 'convertido' when r_status < 0.93 then 'perdido' when r_status < 0.98 then 'em_atendimento' else 'novo' end
           when now() - created_at > interval '30 days' then case when r_status < 0.10 then 'convertido' when r_status < 0.50 then 'perdido' when r_status < 0.90 then 'em_atendimento' else 'novo' end
           else case when r_status < 0.03 then 'convertido' when r_status < 0.10 then 'perdido' when r_status < 0.50 then 'em_atendimento' else 'novo' end end;
       create index on gen_leads (n);
       insert into leads (id, full_name, phone, email, interest_type, property_type, origin, status, notes, property_id, created_at,
         next_contact_at, portal_name, portal_lead_id, lost_reason, lost_at)
       select l.id,
         (${arr(FIRST)})[l.first] || ' ' || (${arr(LAST)})[l.last] || ' ' || (${arr(LAST)})[1 + (l.last + l.n) % ${LAST.length}],
         '(84) 9' || substr(lpad(((l.person * 7919) % 100000000)::text, 8, '0'), 1, 4) || '-' || substr(lpad(((l.person * 7919) % 100000000)::text, 8, '0'), 5, 4),
         case when l.n % 4 <> 0 then lower(translate((${arr(FIRST)})[l.first], 'áéíóúâêôãõçÚÍ', 'aeiouaeoaocui')) || '.' || l.person || '@' ||
           (array['gmail.com','hotmail.com','yahoo.com.br','outlook.com','uol.com.br'])[1 + l.person % 5] end,
         (array['comprar','comprar','comprar','alugar','alugar','vender'])[1 + l.n % 6],
         (array['apartamento','casa','terreno','ponto_comercial'])[1 + l.n % 4],
         (array['site','site','site','whatsapp','whatsapp','portal','indicacao','outro'])[1 + (hashint4(l.n # 25) & 2147483647) % 8],
         l.status,
         case when l.n % 5 < 3 then (${arr(MESSAGES)})[1 + l.n % ${MESSAGES.length}] end,
         case when l.n % 5 < 3 then (select id from gen_props g where g.n = 1 + (hashint4(l.n # 26) & 2147483647) % ${DECADE.listings}) end,
         l.created_at,
         case when l.status = 'em_atendimento' and l.n % 2 = 0 then now() + make_interval(days => (l.n % 20) - 5) end,
         case when l.n % 8 = 5 then (array['ZAP Imóveis','VivaReal','OLX'])[1 + l.n % 3] end,
         case when l.n % 8 = 5 then 'portal-' || l.n end,
         case when l.status = 'perdido' then (${arr(LOST)})[1 + l.n % ${LOST.length}] end,
         case when l.status = 'perdido' then least(now(), l.created_at + make_interval(days => 8 + l.n % 80)) end
       from gen_leads l`,
    ],
    [
      "timeline",
      // created; novo → em_atendimento after a day or three; the closing move; notes in between.
      `insert into lead_events (lead_id, kind, at, actor_name, to_status)
       select id, 'created', created_at, null, 'novo' from gen_leads;
       insert into lead_events (lead_id, kind, at, actor_id, actor_name, from_status, to_status)
       select id, 'status', least(now(), created_at + make_interval(hours => 4 + n % 60)), 'staff-' || (1 + n % 5),
         (${arr(STAFF)})[1 + n % 5], 'novo', 'em_atendimento'
       from gen_leads where status <> 'novo';
       insert into lead_events (lead_id, kind, at, actor_id, actor_name, from_status, to_status, lost_reason)
       select l.id, 'status', least(now(), l.created_at + make_interval(days => 8 + l.n % 80)), 'staff-' || (1 + l.n % 5),
         (${arr(STAFF)})[1 + l.n % 5], 'em_atendimento', l.status, case when l.status = 'perdido' then (${arr(LOST)})[1 + l.n % ${LOST.length}] end
       from gen_leads l where l.status in ('convertido', 'perdido');
       insert into lead_events (lead_id, kind, at, actor_id, actor_name, body)
       select l.id, 'note', least(now(), l.created_at + make_interval(hours => 6 + k * (20 + l.n % 200))), 'staff-' || (1 + (l.n + k) % 5),
         (${arr(STAFF)})[1 + (l.n + k) % 5], (${arr(NOTES)})[1 + (l.n + k) % ${NOTES.length}]
       from gen_leads l, generate_series(1, 1 + (hashint4(l.n # 31) & 2147483647) % 11) as k;
       insert into lead_events (lead_id, kind, at, actor_id, actor_name, next_contact_at)
       select l.id, 'next_contact', least(now(), l.created_at + make_interval(days => 1 + k)), 'staff-' || (1 + l.n % 5),
         (${arr(STAFF)})[1 + l.n % 5], l.created_at + make_interval(days => 3 + k * 2)
       from gen_leads l, generate_series(1, 1 + l.n % 2) as k where l.status <> 'novo'`,
    ],
    [
      "visits",
      `insert into visits (lead_id, property_id, scheduled_at, status, notes, created_by, created_by_name, created_at, updated_at, confirmation_sequence)
       select l.id, coalesce(le.property_id, (select id from gen_props g where g.n = 1 + (hashint4(l.n # 41) & 2147483647) % ${DECADE.listings})),
         s.at,
         case when s.at > now() then 'agendada' when l.n % 4 = 0 then 'cancelada' else 'realizada' end,
         case when l.n % 3 = 0 then 'Chaves na portaria. ' || (${arr(NOTES)})[1 + l.n % ${NOTES.length}] end,
         'staff-' || (1 + l.n % 5), (${arr(STAFF)})[1 + l.n % 5], l.created_at + interval '1 day', least(now(), s.at + interval '2 hours'),
         case when le.email is not null then 0 end
       from gen_leads l join leads le on le.id = l.id,
         lateral (select date_trunc('hour', l.created_at + make_interval(days => 2 + l.n % 12)) + interval '9 hours' as at) s
       where l.n % 3 = 0`,
    ],
    [
      "e-mails",
      // The broker's new-lead alert (it names the person's phone and e-mail) and each visit's confirmation.
      `insert into outbox (kind, to_address, reply_to, subject, text_body, status, attempts, next_attempt_at, created_at, sent_at, lead_id)
       select 'lead-alert', 'contato@corretornatal.com.br', l.email, 'Novo lead: ' || l.full_name,
         'Novo lead pelo site.' || chr(10) || 'Nome: ' || l.full_name || chr(10) || 'Telefone: ' || l.phone || chr(10) ||
         'E-mail: ' || coalesce(l.email, '-') || chr(10) || 'Mensagem: ' || coalesce(l.notes, '-') || chr(10) ||
         'WhatsApp: https://wa.me/55' || regexp_replace(l.phone, '\\D', '', 'g'),
         'sent', 1, l.created_at, l.created_at, l.created_at + interval '5 seconds', l.id
       from leads l;
       insert into outbox (kind, to_address, subject, text_body, status, attempts, next_attempt_at, created_at, sent_at)
       select 'visit-confirmation', le.email, 'Sua visita está confirmada',
         'Olá, ' || split_part(le.full_name, ' ', 1) || '! Sua visita ao imóvel ' || coalesce(p.codigo, '') || ' está marcada para ' ||
         to_char(v.scheduled_at at time zone 'America/Fortaleza', 'DD/MM/YYYY HH24:MI') || '.',
         'sent', 1, v.created_at, v.created_at, v.created_at + interval '5 seconds'
       from visits v join leads le on le.id = v.lead_id left join properties p on p.id = v.property_id
       where le.email is not null`,
    ],
    [
      "buyer profiles, proposals, deals",
      `insert into lead_profiles (lead_id, purpose, types, neighborhoods, neighborhood_keys, price_max, min_bedrooms, features, created_at, updated_at)
       select l.id, case when le.interest_type = 'alugar' then 'aluguel' else 'venda' end,
         case when l.n % 3 = 0 then '{}' else array[le.property_type] end,
         array[(${hoods})[1 + l.n % ${NATAL.length + PARNAMIRIM.length}]],
         array[immutable_unaccent(lower((${hoods})[1 + l.n % ${NATAL.length + PARNAMIRIM.length}]))],
         case when le.interest_type = 'alugar' then 1500 + (l.n % 40) * 150 else 250000 + (l.n % 60) * 25000 end,
         1 + l.n % 4, case when l.n % 2 = 0 then array['varanda'] else '{}' end, l.created_at, l.created_at
       from gen_leads l join leads le on le.id = l.id where l.n % 4 = 0 and le.interest_type <> 'vender';
       create temporary table gen_proposals as
       select l.n, gen_random_uuid() as id, l.id as lead_id, g.id as property_id, p.purpose as kind, p.price, l.created_at + interval '15 days' as created_at,
         case when p.status in ('vendido','alugado') then 'aceita' when l.created_at > now() - interval '45 days' then 'em_negociacao'
              when l.n % 2 = 0 then 'recusada' else 'expirada' end as status
       from gen_leads l join gen_props g on g.n = 1 + ((l.n / 20) * 7) % ${DECADE.listings} join properties p on p.id = g.id
       where l.n % 20 = 0;
       insert into proposals (id, lead_id, property_id, kind, status, amount_cents, cash_cents, financing_cents, valid_until, created_by, created_by_name, created_at, updated_at, decided_at)
       select id, lead_id, property_id, kind, status, (price * 95)::bigint, case when kind = 'venda' then (price * 30)::bigint end,
         case when kind = 'venda' then (price * 65)::bigint end, (created_at + interval '10 days')::date, 'staff-1', '${STAFF[0]}', created_at, created_at,
         case when status <> 'em_negociacao' then created_at + interval '5 days' end
       from gen_proposals;
       insert into proposal_offers (proposal_id, party, amount_cents, actor_name, at)
       select id, 'cliente', (price * 92)::bigint, '${STAFF[0]}', created_at from gen_proposals
       union all select id, 'proprietario', (price * 97)::bigint, '${STAFF[0]}', created_at + interval '2 days' from gen_proposals;
       insert into deals (proposal_id, lead_id, property_id, kind, final_value_cents, closed_on, commission_percent, commission_cents,
         commission_status, commission_due_on, commission_paid_on, created_by_name, created_at)
       select id, lead_id, property_id, kind, (price * 95)::bigint, (created_at + interval '6 days')::date,
         case when kind = 'venda' then 6 else 100 end,
         case when kind = 'venda' then (price * 95 * 0.06)::bigint else (price * 95)::bigint end,
         case when created_at < now() - interval '60 days' then 'recebida' else 'a_receber' end,
         (created_at + interval '36 days')::date,
         case when created_at < now() - interval '60 days' then (created_at + interval '36 days')::date end,
         '${STAFF[0]}', created_at + interval '6 days'
       from gen_proposals where status = 'aceita'`,
    ],
    [
      "audit trail",
      `insert into audit_log (at, actor_id, actor_email, action, entity, entity_id, details)
       select least(now(), l.created_at + make_interval(hours => k * 30)), 'staff-' || (1 + (l.n + k) % 5),
         'corretor' || (1 + (l.n + k) % 5) || '@corretornatal.com.br',
         (array['lead.update','lead.note','lead.update','visit.create','lead.update'])[1 + k % 5], case when k % 5 = 3 then 'visit' else 'lead' end,
         l.id::text, case when k % 5 = 1 then null else jsonb_build_object('fields', jsonb_build_array('status')) end
       from gen_leads l, generate_series(1, 3) as k;
       insert into audit_log (at, actor_id, actor_email, action, entity, entity_id, details)
       select least(now(), g.created_at + make_interval(days => k * 40)), 'staff-1', 'corretor1@corretornatal.com.br',
         case when k = 0 then 'property.create' else 'property.update' end, 'property', g.id::text,
         case when k = 0 then null else jsonb_build_object('fields', jsonb_build_array('price')) end
       from gen_props g, generate_series(0, 3) as k;
       insert into audit_log (at, actor_id, actor_email, action, entity, entity_id, details)
       select now() - make_interval(days => d, hours => s), 'staff-' || s, 'corretor' || s || '@corretornatal.com.br', 'auth.sign_in', 'user', 'staff-' || s,
         jsonb_build_object('ip', '189.12.' || s || '.' || (d % 250))
       from generate_series(0, ${DECADE.years * 365}) as d, generate_series(1, 5) as s`,
    ],
  ];
}

/**
 * Fills a migrated, empty database. Triggers are off while it runs (session_replication_role):
 * the timeline rows they would write are written here with their real dates, and ten years of
 * change notifications would only fill the queue. Returns the seconds each step took.
 */
export async function fillDecade(url: string, log: (line: string) => void = console.log): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const times: Record<string, number> = {};
  try {
    const { rows } = await client.query<{ n: number }>("select count(*)::int as n from leads");
    if (rows[0].n > 0) throw new Error("The database already holds leads: fill a fresh one.");
    await client.query("set session_replication_role = replica");
    await client.query("set work_mem = '64MB'");
    await client.query("select setseed(0.26)");
    for (const [label, text] of steps()) {
      const started = performance.now();
      await client.query(text);
      times[label] = +((performance.now() - started) / 1000).toFixed(1);
      log(`  ${label}: ${times[label]} s`);
    }
    await client.query("set session_replication_role = origin");
    // Retention as a broker who keeps everything would set it (120 months, the maximum): the bench lowers it to measure a run.
    await client.query(`insert into settings (key, value) values ('retention_months', '120') on conflict (key) do update set value = excluded.value`);
    const started = performance.now();
    await client.query("vacuum analyze");
    times.vacuum = +((performance.now() - started) / 1000).toFixed(1);
    log(`  vacuum analyze: ${times.vacuum} s`);
  } finally {
    await client.end();
  }
  return times;
}

/** Row counts of the big tables and the database's size. */
export async function decadeCounts(url: string): Promise<Record<string, number | string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = ["properties", "leads", "lead_events", "visits", "property_views", "outbox", "audit_log", "lead_profiles", "proposals", "deals"];
    const counts: Record<string, number | string> = {};
    for (const table of tables) counts[table] = (await client.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0].n;
    counts.databaseSize = (await client.query<{ size: string }>("select pg_size_pretty(pg_database_size(current_database())) as size")).rows[0].size;
    return counts;
  } finally {
    await client.end();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith("postgres")) throw new Error("DATABASE_URL=postgres://… is required");
  const handle = await openPostgres(url, 2);
  await migrateDatabase(handle);
  await handle.close();
  const started = performance.now();
  await fillDecade(url);
  console.log(`ten years generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  console.log(await decadeCounts(url));
}
