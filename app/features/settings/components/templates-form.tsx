import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { useAnswerToast } from "~/features/crm/form-helpers";
import { MAX_TEMPLATE_BODY, MAX_TEMPLATE_NAME, MAX_TEMPLATES, type SettingsAnswer } from "../keys";
import { TEMPLATE_PLACEHOLDERS, type WhatsappTemplate } from "../templates";
import { RowButtons, useListEditor } from "./list-editor";
import { SectionStatus, useSectionChanges } from "./unsaved-changes";

/** The WhatsApp message templates the lead page offers: add, edit, reorder, remove, then save. */
export function TemplatesForm({ templates, onDirtyChange }: { templates: WhatsappTemplate[]; onDirtyChange: (dirty: boolean) => void }) {
  const fetcher = useFetcher<SettingsAnswer>();
  const changes = useSectionChanges(fetcher, "templates", onDirtyChange);
  // New rows have no id yet: the server gives them one on save.
  const editor = useListEditor<WhatsappTemplate>(templates);
  const { rows, update } = editor;
  // After a save the server's list (with the new templates' ids) replaces the one edited here.
  useAnswerToast({ state: fetcher.state, data: fetcher.data }, () => editor.reset(templates));
  const errors = fetcher.state === "idle" && fetcher.data?.intent === "templates" ? (fetcher.data.errors ?? {}) : {};

  return (
    <Card className="p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Modelos de mensagem do WhatsApp</h2>
        <SectionStatus state={changes.state} />
      </div>
      <p className="mt-1 text-sm text-muted-foreground">Oferecidos na página de cada lead: o texto já vai preenchido na conversa.</p>
      <div className="mt-3 rounded-md bg-muted p-3 text-sm">
        <p className="font-medium">Marcadores que você pode usar:</p>
        <ul className="mt-1 grid gap-x-6 gap-y-1 sm:grid-cols-2">
          {Object.entries(TEMPLATE_PLACEHOLDERS).map(([placeholder, meaning]) => (
            <li key={placeholder}>
              <code className="rounded bg-white px-1 font-semibold">{placeholder}</code> {meaning}
            </li>
          ))}
        </ul>
      </div>
      <fetcher.Form ref={changes.formRef} onInput={changes.onInput} method="post" action="/crm/configuracoes" noValidate className="mt-5 grid gap-4">
        <input type="hidden" name="intent" value="templates" />
        {errors.templates && <p className="text-sm font-medium text-destructive">{errors.templates}</p>}
        {rows.length === 0 && <p className="text-sm text-muted-foreground">Nenhum modelo. Adicione o primeiro abaixo.</p>}
        <ol className="grid gap-4">
          {rows.map((row, index) => (
            <li key={row.key} className="grid gap-3 rounded-md border border-border p-3 sm:p-4">
              <input type="hidden" name={`templates.${index}.id`} value={row.id} />
              <div className="flex flex-wrap items-end gap-2">
                <FormField label={`Nome do modelo ${index + 1}`} error={errors[`templates.${index}.name`]} className="min-w-0 flex-1 basis-56">
                  <Input
                    name={`templates.${index}.name`}
                    value={row.name}
                    onChange={(event) => update(row.key, { name: event.currentTarget.value })}
                    required
                    maxLength={MAX_TEMPLATE_NAME}
                  />
                </FormField>
                <RowButtons noun="modelo" index={index} count={rows.length} editor={editor} rowKey={row.key} />
              </div>
              <FormField
                label={`Mensagem do modelo ${index + 1}`}
                error={errors[`templates.${index}.body`]}
                hint={`${row.body.length}/${MAX_TEMPLATE_BODY} caracteres`}
              >
                <Textarea
                  name={`templates.${index}.body`}
                  value={row.body}
                  onChange={(event) => update(row.key, { body: event.currentTarget.value })}
                  required
                  maxLength={MAX_TEMPLATE_BODY}
                  rows={3}
                />
              </FormField>
            </li>
          ))}
        </ol>
        <div className="flex flex-wrap gap-3">
          <Button
            variant="outline"
            onClick={() => editor.add({ id: "", name: "", body: "" })}
            disabled={rows.length >= MAX_TEMPLATES}
          >
            <Icon name="plus" />
            Adicionar modelo
          </Button>
          <Button type="submit" disabled={fetcher.state !== "idle"}>
            <Icon name="check" />
            {fetcher.state !== "idle" ? "Salvando..." : "Salvar modelos"}
          </Button>
        </div>
        {rows.length >= MAX_TEMPLATES && <p className="text-xs text-muted-foreground">Máximo de {MAX_TEMPLATES} modelos.</p>}
      </fetcher.Form>
    </Card>
  );
}
