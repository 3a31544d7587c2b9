import { useEffect, useState } from "react";
import { data } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { Pagination } from "~/components/ui/pagination";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toaster";
import { LEAD_STATUSES } from "~/db/values";
import { requireStaff } from "~/features/auth/guard.server";
import { DeleteConfirm, useRecordDialogs } from "~/features/crm/components/delete-confirm";
import { ListSearch } from "~/features/crm/components/list-search";
import { LeadFormDialog } from "~/features/leads/components/lead-form-dialog";
import { LeadsTable } from "~/features/leads/components/leads-table";
import { LEAD_CRM_MESSAGES, leadFormSchema } from "~/features/leads/crm-schema";
import {
  type CrmLead,
  type CrmLeadsPage,
  createLead,
  deleteLead,
  listCrmLeadsPage,
  parseStatusFilter,
  updateLead,
} from "~/features/leads/crm.server";
import { LEAD_STATUS_LABELS } from "~/features/leads/labels";
import { firstIssueMessage } from "~/lib/form-data";
import { errorFields, logger } from "~/lib/logger.server";
import { pageInfo, parseTableQuery, SEARCH_PARAM, TABLE_PAGE_SIZE, withPage } from "~/lib/pagination";
import { asString, readBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-leads";

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request);
  const params = new URL(request.url).searchParams;
  const query = {
    ...parseTableQuery(params),
    status: parseStatusFilter(params.get("status")),
  };
  try {
    return {
      ...(await listCrmLeadsPage((await getRuntime()).db, query)),
      loadFailed: false,
    };
  } catch (error) {
    logger("crm").error({ ...errorFields(error) }, "leads could not be loaded");
    const empty: CrmLeadsPage = {
      ...pageInfo(1, 0, TABLE_PAGE_SIZE),
      status: query.status,
      search: query.search,
      leads: [],
    };
    return { ...empty, loadFailed: true };
  }
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request);
  const actor = { id: staff.id, email: staff.email };
  const { db } = await getRuntime();
  const body = await readBody(request);
  const intent = asString(body.intent);
  const id = asString(body.id);

  if (intent === "create" || intent === "update") {
    const parsed = leadFormSchema.safeParse(body.values ?? body);
    if (!parsed.success) return data({ ok: false, message: firstIssueMessage(parsed.error) }, { status: 400 });
    try {
      if (intent === "create") {
        await createLead(db, actor, parsed.data);
        return { ok: true, message: LEAD_CRM_MESSAGES.created };
      }
      if (id && (await updateLead(db, actor, id, parsed.data))) return { ok: true, message: LEAD_CRM_MESSAGES.updated };
      return data({ ok: false, message: LEAD_CRM_MESSAGES.saveFailed }, { status: 404 });
    } catch (error) {
      logger("crm").error({ ...errorFields(error) }, "lead could not be saved");
      return data({ ok: false, message: LEAD_CRM_MESSAGES.saveFailed }, { status: 500 });
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

export default function CrmLeadsPage({ loaderData }: Route.ComponentProps) {
  const { leads, status, search, total, page, pageCount, loadFailed } = loaderData;
  // The select shows the choice at once; the URL (and so the table) follows through the form.
  const [selectedStatus, setSelectedStatus] = useState(status ?? "");
  useEffect(() => setSelectedStatus(status ?? ""), [status]);
  const dialogs = useRecordDialogs<CrmLead>();

  useEffect(() => {
    if (loadFailed) toast.error(LEAD_CRM_MESSAGES.loadFailed);
  }, [loadFailed]);

  return (
    <div className="grid gap-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Leads</h1>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {total} {total === 1 ? "lead" : "leads"}
            {status ? ` com status ${LEAD_STATUS_LABELS[status]}` : ""}
            {search ? ` para “${search}”` : ""}
          </p>
        </div>
        <Button onClick={dialogs.startNew}>
          <Icon name="plus" /> Novo Lead
        </Button>
      </header>

      <ListSearch id="lead-search" label="Buscar leads" placeholder="Nome, telefone ou email" value={search}>
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
      </ListSearch>

      <Card>
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

      <LeadFormDialog open={dialogs.formOpen} onOpenChange={dialogs.setFormOpen} lead={dialogs.editing} />

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
