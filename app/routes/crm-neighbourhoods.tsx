import { data } from "react-router";
import { requireStaff } from "~/features/auth/guard.server";
import { NeighbourhoodTextForm, type NeighbourhoodTextAnswer, type NeighbourhoodTextRow } from "~/features/neighbourhoods/components/neighbourhood-text-form";
import { purposeSummary } from "~/features/neighbourhoods/page-view.server";
import { findNeighbourhood, listNeighbourhoods, listNeighbourhoodTexts, saveNeighbourhoodText } from "~/features/neighbourhoods/queries.server";
import { NEIGHBOURHOOD_TEXT_MESSAGES, parseNeighbourhoodText } from "~/features/neighbourhoods/text-schema";
import { formatDateTime } from "~/lib/format";
import { readBody, UnreadableBody } from "~/lib/request-body.server";
import { getDb } from "~/runtime.server";
import type { Route } from "./+types/crm-neighbourhoods";

/**
 * /crm/bairros (admin and corretor, decision 021): every neighbourhood with a listing on the
 * market, each with the broker's short text for its public page. Saved texts show on the next
 * request (the page cache drops on the change, migration 0013's trigger).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request);
  const db = await getDb();
  const [neighbourhoods, texts] = await Promise.all([listNeighbourhoods(db), listNeighbourhoodTexts(db)]);
  const rows: NeighbourhoodTextRow[] = neighbourhoods.map((neighbourhood) => {
    const saved = texts.get(neighbourhood.slug);
    return {
      slug: neighbourhood.slug,
      name: neighbourhood.name,
      place: `${neighbourhood.city}/${neighbourhood.state}`,
      summary: purposeSummary(neighbourhood),
      text: saved?.text ?? "",
      updated: saved ? `Atualizado em ${formatDateTime(saved.updated_at)}${saved.updated_by ? ` por ${saved.updated_by}` : ""}` : null,
    };
  });
  return { rows };
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request);
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return data<NeighbourhoodTextAnswer>({ ok: false, message: body.message }, { status: 400 });
  const parsed = parseNeighbourhoodText(body);
  if (!parsed.ok) return data<NeighbourhoodTextAnswer>({ ok: false, message: parsed.message, field: parsed.field }, { status: 400 });
  const db = await getDb();
  const neighbourhood = await findNeighbourhood(db, parsed.value.slug);
  if (!neighbourhood) return data<NeighbourhoodTextAnswer>({ ok: false, message: NEIGHBOURHOOD_TEXT_MESSAGES.unknown, field: "slug" }, { status: 400 });
  const changed = await saveNeighbourhoodText(db, { id: staff.id, email: staff.email, name: staff.name }, neighbourhood, parsed.value.text);
  const message = !changed ? "Nada mudou no texto." : parsed.value.text ? `Texto de ${neighbourhood.name} salvo.` : `Texto de ${neighbourhood.name} removido.`;
  return data<NeighbourhoodTextAnswer>({ ok: true, message, slug: neighbourhood.slug });
}

export const meta: Route.MetaFunction = () => [{ title: "Bairros | CRM" }];

export default function CrmNeighbourhoodsPage({ loaderData }: Route.ComponentProps) {
  const { rows } = loaderData;
  return (
    <div className="grid gap-6">
      <header>
        <h1 className="text-2xl font-bold">Bairros</h1>
        <p className="text-sm text-muted-foreground">
          Cada bairro com imóveis disponíveis tem a sua página no site. Escreva um texto curto sobre ele: o que há por perto, o perfil dos imóveis. O texto aparece na próxima visita à página.
        </p>
      </header>
      {rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border bg-white p-6 text-center text-muted-foreground">Nenhum bairro com imóveis disponíveis ainda.</p>
      ) : (
        <div className="grid gap-4 xl:grid-cols-2">
          {rows.map((row) => (
            <NeighbourhoodTextForm key={row.slug} row={row} />
          ))}
        </div>
      )}
    </div>
  );
}
