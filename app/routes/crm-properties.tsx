import { data } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { Pagination } from "~/components/ui/pagination";
import { requireStaff } from "~/features/auth/guard.server";
import { DeleteConfirm, useRecordDialogs } from "~/features/crm/components/delete-confirm";
import { ListPageHeader, useLoadFailedToast } from "~/features/crm/components/list-page";
import { ListSearch } from "~/features/crm/components/list-search";
import { ExportButtons } from "~/features/reports/components/export-buttons";
import { PropertiesTable } from "~/features/properties/components/properties-table";
import { PropertyFormDialog } from "~/features/properties/components/property-form-dialog";
import { mapTiles } from "~/features/properties/map/map-data.server";
import { getEnv } from "~/lib/env.server";
import { PROPERTY_MESSAGES, propertyFormSchema } from "~/features/properties/crm-schema";
import {
  type CrmProperty,
  type CrmPropertiesPage,
  createProperty,
  deleteProperty,
  listCrmPropertiesPage,
  setFeatured,
  updateProperty,
} from "~/features/properties/crm.server";
import { firstIssueMessage } from "~/lib/form-data";
import { errorFields, logger } from "~/lib/logger.server";
import { pageInfo, parseTableQuery, SEARCH_PARAM, TABLE_PAGE_SIZE, withPage } from "~/lib/pagination";
import { asString, readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-properties";

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request);
  const query = parseTableQuery(new URL(request.url).searchParams);
  try {
    return {
      ...(await listCrmPropertiesPage((await getRuntime()).db, query)),
      loadFailed: false,
      mapTiles: mapTiles(),
      cepLookup: Boolean(getEnv().CEP_LOOKUP_URL),
    };
  } catch (error) {
    logger("crm").error({ ...errorFields(error) }, "properties could not be loaded");
    const empty: CrmPropertiesPage = {
      ...pageInfo(1, 0, TABLE_PAGE_SIZE),
      search: query.search,
      properties: [],
    };
    return { ...empty, loadFailed: true, mapTiles: mapTiles(), cepLookup: Boolean(getEnv().CEP_LOOKUP_URL) };
  }
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request);
  const actor = { id: staff.id, email: staff.email, name: staff.name };
  const runtime = await getRuntime();
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return data({ ok: false, message: body.message }, { status: 400 });
  const intent = asString(body.intent);
  const id = asString(body.id);

  if (intent === "create" || intent === "update") {
    const parsed = propertyFormSchema.safeParse(body.values ?? body);
    if (!parsed.success) {
      // The field is named so the dialog can take the broker to it.
      const field = parsed.error.issues[0]?.path[0];
      return data({ ok: false, message: firstIssueMessage(parsed.error), field: typeof field === "string" ? field : undefined }, { status: 400 });
    }
    if (intent === "update" && !id) return data({ ok: false, message: PROPERTY_MESSAGES.saveFailed }, { status: 400 });
    const result = intent === "create" ? await createProperty(runtime, actor, parsed.data) : await updateProperty(runtime, actor, id!, parsed.data);
    if (!result.ok) {
      const field = result.field ?? (result.message === PROPERTY_MESSAGES.duplicateCode ? "codigo" : undefined);
      return data({ ok: false, message: result.message, field }, { status: result.status });
    }
    return { ok: true, message: intent === "create" ? PROPERTY_MESSAGES.created : PROPERTY_MESSAGES.updated };
  }
  if (intent === "delete" && id) {
    const deleted = await deleteProperty(runtime, actor, id).catch((error) => {
      logger("crm").error({ ...errorFields(error) }, "property could not be deleted");
      return false;
    });
    return deleted
      ? { ok: true, message: PROPERTY_MESSAGES.deleted }
      : data({ ok: false, message: PROPERTY_MESSAGES.deleteFailed }, { status: 404 });
  }
  if (intent === "featured" && id) {
    const featured = body.featured === true || body.featured === "true" || body.featured === "on";
    const changed = await setFeatured(runtime.db, actor, id, featured);
    return changed ? { ok: true, message: "" } : data({ ok: false, message: PROPERTY_MESSAGES.saveFailed }, { status: 404 });
  }
  return data({ ok: false, message: "Ação desconhecida" }, { status: 400 });
}

export const meta: Route.MetaFunction = () => [{ title: "Imóveis | CRM" }];

export default function CrmPropertiesPage({ loaderData }: Route.ComponentProps) {
  const { properties, total, page, pageCount, search, loadFailed } = loaderData;
  const dialogs = useRecordDialogs<CrmProperty>();

  useLoadFailedToast(loadFailed, PROPERTY_MESSAGES.loadFailed);

  return (
    <div className="grid gap-6">
      <ListPageHeader
        title="Imóveis"
        summary={
          search
            ? `${total} ${total === 1 ? "imóvel encontrado" : "imóveis encontrados"} para “${search}”`
            : `${total} ${total === 1 ? "imóvel cadastrado" : "imóveis cadastrados"}`
        }
      >
        <ExportButtons href={`/crm/imoveis/exportar${search ? `?${new URLSearchParams({ [SEARCH_PARAM]: search })}` : ""}`} label="a lista de imóveis" />
        <Button onClick={dialogs.startNew}>
          <Icon name="plus" /> Novo Imóvel
        </Button>
      </ListPageHeader>

      <ListSearch id="property-search" label="Buscar imóveis" placeholder="Código, título ou bairro" value={search} />

      <Card>
        <PropertiesTable
          properties={properties}
          emptyText={search ? "Nenhum imóvel encontrado para esta busca" : undefined}
          onEdit={dialogs.startEdit}
          onDelete={dialogs.askDelete}
        />
      </Card>

      <Pagination
        page={page}
        pageCount={pageCount}
        hrefFor={(target) => `/crm/imoveis${withPage(search ? { [SEARCH_PARAM]: search } : {}, target)}`}
      />

      <PropertyFormDialog open={dialogs.formOpen} onOpenChange={dialogs.setFormOpen} property={dialogs.editing} mapTiles={loaderData.mapTiles} cepLookup={loaderData.cepLookup} />

      <DeleteConfirm
        record={dialogs.deleting}
        onClose={dialogs.closeDelete}
        action="/crm/imoveis"
        title={PROPERTY_MESSAGES.deleteConfirm}
        describe={(property) => `${property.codigo} — ${property.title}. As fotos também serão apagadas.`}
      />
    </div>
  );
}
