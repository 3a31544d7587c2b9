import { lazy, Suspense, useEffect, useState } from "react";
import { data, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { Pagination } from "~/components/ui/pagination";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { LEAD_STATUSES } from "~/db/values";
import { requireStaff } from "~/features/auth/guard.server";
import { DeleteConfirm, useRecordDialogs } from "~/features/crm/components/delete-confirm";
import { ListPageHeader, useLoadFailedToast } from "~/features/crm/components/list-page";
import { ListSearch } from "~/features/crm/components/list-search";
import { LeadFormDialog } from "~/features/leads/components/lead-form-dialog";
import { LeadsTable } from "~/features/leads/components/leads-table";
import { ExportButtons } from "~/features/reports/components/export-buttons";
import { type BoardColumn, BOARD_MESSAGES, listLeadBoard, statusMoveSchema } from "~/features/leads/board.server";
import { LEAD_CRM_MESSAGES, leadFormSchema } from "~/features/leads/crm-schema";
import {
  type CrmLead,
  type CrmLeadsPage,
  changeLeadStatus,
  createLead,
  deleteLead,
  listCrmLeadsPage,
  parseStatusFilter,
  updateLead,
} from "~/features/leads/crm.server";
import type { BoardContact } from "~/features/leads/components/board/card";
import { LEAD_STATUS_LABELS } from "~/features/leads/labels";
import { resolveLoss } from "~/features/leads/loss.server";
import { loadLostReasons } from "~/features/settings/lost-reasons.server";
import { loadBrokerProfile, loadWhatsappTemplates } from "~/features/settings/settings.server";
import { firstIssueMessage } from "~/lib/form-data";
import { errorFields, logger } from "~/lib/logger.server";
import { pageInfo, parseTableQuery, SEARCH_PARAM, TABLE_PAGE_SIZE, withPage } from "~/lib/pagination";
import { cn } from "~/lib/utils";
import { asString, readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-leads";

/** A board whose data could not be read has no cards: nothing to write to. */
const NO_CONTACT: BoardContact = { template: null, brokerName: "", publicUrl: "" };

/** `?vista=quadro` shows the pipeline board; the table is the default view. */
const VIEW_PARAM = "vista";
type View = "tabela" | "quadro";

// The board (and dnd-kit with it) loads only when it is shown: the table view does not pay for it.
const LeadBoard = lazy(() => import("~/features/leads/components/lead-board"));

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request);
  // Only an admin downloads people's data (issue 12): a corretor does not get the buttons.
  const canExport = staff.role === "admin";
  const params = new URL(request.url).searchParams;
  const view: View = params.get(VIEW_PARAM) === "quadro" ? "quadro" : "tabela";
  const query = {
    ...parseTableQuery(params),
    status: parseStatusFilter(params.get("status")),
  };
  const { db, env } = await getRuntime();
  // The instant the data was read: cards say 'há 2 dias' from it, on the server and in the browser alike.
  const now = new Date().toISOString();
  // Issue 24: the reasons offered when a lead is lost (the dialog of either view, the board's move).
  const lostReasons = await loadLostReasons(db).catch(() => [] as string[]);
  const empty: CrmLeadsPage = { ...pageInfo(1, 0, TABLE_PAGE_SIZE), status: query.status, search: query.search, leads: [] };
  try {
    if (view === "quadro") {
      const board: BoardColumn[] = await listLeadBoard(db, { search: query.search });
      // The cards' WhatsApp button writes the first message template (issue 21).
      const [templates, broker] = await Promise.all([loadWhatsappTemplates(db), loadBrokerProfile(db)]);
      const contact: BoardContact = { template: templates[0] ?? null, brokerName: broker.name, publicUrl: env.publicUrl };
      return { ...empty, status: null, total: board.reduce((sum, column) => sum + column.total, 0), view, board, contact, now, canExport, lostReasons, loadFailed: false };
    }
    return { ...(await listCrmLeadsPage(db, query)), view, board: null, contact: null, now, canExport, lostReasons, loadFailed: false };
  } catch (error) {
    logger("crm").error({ ...errorFields(error) }, "leads could not be loaded");
    return { ...empty, view, board: view === "quadro" ? ([] as BoardColumn[]) : null, contact: null, now, canExport, lostReasons, loadFailed: true };
  }
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request);
  const actor = { id: staff.id, email: staff.email, name: staff.name };
  const { db } = await getRuntime();
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return data({ ok: false, message: body.message }, { status: 400 });
  const intent = asString(body.intent);
  const id = asString(body.id);

  if (intent === "create" || intent === "update") {
    const parsed = leadFormSchema.safeParse(body.values ?? body);
    if (!parsed.success) return data({ ok: false, message: firstIssueMessage(parsed.error) }, { status: 400 });
    try {
      // Issue 24: 'perdido' only with a reason from the settings' list (or the one the lead has).
      const loss = await resolveLoss(db, intent === "update" ? (id ?? null) : null, parsed.data);
      if (!loss.ok) return data({ ok: false, message: loss.message }, { status: 400 });
      const values = { ...parsed.data, lost_reason: loss.loss.lost_reason, lost_note: loss.loss.lost_note ?? undefined };
      if (intent === "create") {
        await createLead(db, actor, values);
        return { ok: true, message: LEAD_CRM_MESSAGES.created };
      }
      if (id && (await updateLead(db, actor, id, values))) return { ok: true, message: LEAD_CRM_MESSAGES.updated };
      return data({ ok: false, message: LEAD_CRM_MESSAGES.saveFailed }, { status: 404 });
    } catch (error) {
      logger("crm").error({ ...errorFields(error) }, "lead could not be saved");
      return data({ ok: false, message: LEAD_CRM_MESSAGES.saveFailed }, { status: 500 });
    }
  }
  if (intent === "status") {
    // The board's move. The database trigger writes the timeline row with this actor.
    const parsed = statusMoveSchema.safeParse(body);
    if (!parsed.success) return data({ ok: false, message: firstIssueMessage(parsed.error) }, { status: 400 });
    try {
      const loss = await resolveLoss(db, parsed.data.id, parsed.data);
      if (!loss.ok) return data({ ok: false, message: loss.message }, { status: 400 });
      if (await changeLeadStatus(db, actor, parsed.data.id, parsed.data.status, loss.loss)) {
        return { ok: true, message: BOARD_MESSAGES.moved(LEAD_STATUS_LABELS[parsed.data.status]) };
      }
      return data({ ok: false, message: BOARD_MESSAGES.notFound }, { status: 404 });
    } catch (error) {
      logger("crm").error({ ...errorFields(error) }, "lead status could not be changed");
      return data({ ok: false, message: BOARD_MESSAGES.moveFailed }, { status: 500 });
    }
  }
  if (intent === "delete" && id) {
    const deleted = await deleteLead(db, actor, id).catch((error) => {
      logger("crm").error({ ...errorFields(error) }, "lead could not be deleted");
      return false;
    });
    return deleted ? { ok: true, message: LEAD_CRM_MESSAGES.deleted } : data({ ok: false, message: LEAD_CRM_MESSAGES.deleteFailed }, { status: 404 });
  }
  return data({ ok: false, message: "Ação desconhecida" }, { status: 400 });
}

export const meta: Route.MetaFunction = () => [{ title: "Leads | CRM" }];

/** 'Tabela' | 'Quadro': links, so the view lives in the URL (reload, Back, a shared link keep it). */
function ViewSwitch({ view, search }: { view: View; search: string }) {
  const hrefFor = (target: View) => {
    const params = new URLSearchParams();
    if (search) params.set(SEARCH_PARAM, search);
    if (target === "quadro") params.set(VIEW_PARAM, "quadro");
    const query = params.toString();
    return `/crm/leads${query ? `?${query}` : ""}`;
  };
  const item = (target: View, text: string, icon: "table" | "kanban") => (
    <Link
      to={hrefFor(target)}
      aria-current={view === target ? "page" : undefined}
      preventScrollReset
      className={cn(
        "inline-flex h-9 items-center gap-2 rounded px-3 text-sm font-semibold transition-colors",
        view === target ? "bg-white text-foreground shadow-sm" : "text-muted-foreground hover:text-foreground",
      )}
    >
      <Icon name={icon} /> {text}
    </Link>
  );
  return (
    <nav aria-label="Modo de exibição" className="inline-flex rounded-md bg-muted-foreground/10 p-1">
      {item("tabela", "Tabela", "table")}
      {item("quadro", "Quadro", "kanban")}
    </nav>
  );
}

/** The export downloads what the table shows: the same search and status. */
function leadsExportHref(search: string, status: string | null): string {
  const params = new URLSearchParams();
  if (status) params.set("status", status);
  if (search) params.set(SEARCH_PARAM, search);
  const query = params.toString();
  return `/crm/leads/exportar${query ? `?${query}` : ""}`;
}

export default function CrmLeadsPage({ loaderData }: Route.ComponentProps) {
  const { leads, status, search, total, page, pageCount, view, board, contact, now, canExport, lostReasons, loadFailed } = loaderData;
  // The select shows the choice at once; the URL (and so the table) follows through the form.
  const [selectedStatus, setSelectedStatus] = useState(status ?? "");
  useEffect(() => setSelectedStatus(status ?? ""), [status]);
  const dialogs = useRecordDialogs<CrmLead>();

  useLoadFailedToast(loadFailed, LEAD_CRM_MESSAGES.loadFailed);

  return (
    <div className="grid min-w-0 gap-6">
      <ListPageHeader
        title="Leads"
        summary={
          <>
            {total} {total === 1 ? "lead" : "leads"}
            {status ? ` com status ${LEAD_STATUS_LABELS[status]}` : ""}
            {search ? ` para “${search}”` : ""}
          </>
        }
      >
        <ViewSwitch view={view} search={search} />
        {canExport && <ExportButtons href={leadsExportHref(search, status)} label="a lista de leads" />}
        <Button onClick={dialogs.startNew}>
          <Icon name="plus" /> Novo Lead
        </Button>
      </ListPageHeader>

      <ListSearch
        id="lead-search"
        label="Buscar leads"
        placeholder="Nome, telefone ou email"
        value={search}
        keep={{ [VIEW_PARAM]: view === "quadro" ? "quadro" : null }}
      >
        {/* The board shows every status side by side: the filter belongs to the table. */}
        {view === "tabela" && (
          <div className="grid gap-1.5">
            <Label htmlFor="lead-status-filter">Status</Label>
            <NativeSelect
              id="lead-status-filter"
              name="status"
              value={selectedStatus}
              className="w-48"
              onChange={(event) => setSelectedStatus(event.target.value)}
            >
              <option value="">Todos</option>
              {LEAD_STATUSES.map((value) => (
                <option key={value} value={value}>
                  {LEAD_STATUS_LABELS[value]}
                </option>
              ))}
            </NativeSelect>
          </div>
        )}
      </ListSearch>

      {board ? (
        <Suspense fallback={<p className="p-10 text-center text-muted-foreground">Carregando o quadro…</p>}>
          <LeadBoard columns={board} now={now} search={search} contact={contact ?? NO_CONTACT} lostReasons={lostReasons} />
        </Suspense>
      ) : (
        <>
          <Card className="min-w-0">
            <LeadsTable
              leads={leads}
              emptyText={search || status ? "Nenhum lead encontrado com estes filtros" : undefined}
              onEdit={dialogs.startEdit}
              onDelete={dialogs.askDelete}
            />
          </Card>

          <Pagination
            page={page}
            pageCount={pageCount}
            hrefFor={(target) => {
              const kept: Record<string, string> = {};
              if (search) kept[SEARCH_PARAM] = search;
              if (status) kept.status = status;
              return `/crm/leads${withPage(kept, target)}`;
            }}
          />
        </>
      )}

      <LeadFormDialog open={dialogs.formOpen} onOpenChange={dialogs.setFormOpen} lead={dialogs.editing} lostReasons={lostReasons} />

      <DeleteConfirm
        record={dialogs.deleting}
        onClose={dialogs.closeDelete}
        action="/crm/leads"
        title={LEAD_CRM_MESSAGES.deleteConfirm}
        describe={(lead) => `${lead.full_name} — ${lead.phone}`}
      />
    </div>
  );
}
