import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { LEAD_STATUSES, type LeadStatus } from "~/db/values";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { formatDateTime, toBrokerDateTimeInput } from "~/lib/format";
import { firstIssueMessage } from "~/lib/form-data";
import { LEAD_STATUS_LABELS } from "../labels";
import { NOTE_MAX, nextContactSchema, noteSchema } from "../lead-page-schema";
import { LOSS_MESSAGES } from "../loss";
import { LossFields } from "./loss-fields";

/**
 * The lead page's small forms. Each posts to the page's own action (plain forms, so they also
 * work before the page's JavaScript has loaded) and answers with a toast.
 */

/**
 * The status, and for 'Perdido' why (issue 24): the reason from the settings' list and an
 * optional note, required before the change is sent (and again by the action). While the lead
 * is lost, its reason and note can be corrected here too.
 */
export function LeadStatusForm({
  leadId,
  status,
  lostReason,
  lostNote,
  reasons,
}: {
  leadId: string;
  status: LeadStatus;
  lostReason: string | null;
  lostNote: string | null;
  reasons: string[];
}) {
  const fetcher = useFetcher<ActionAnswer>({ key: `lead-status-${leadId}` });
  const [value, setValue] = useState<LeadStatus>(status);
  const [reason, setReason] = useState(lostReason ?? "");
  const [note, setNote] = useState(lostNote ?? "");
  const [error, setError] = useState<string | undefined>();
  const select = useRef<HTMLSelectElement>(null);
  // Another tab or the board moved it: show the current status and reason.
  useEffect(() => setValue(status), [status]);
  useEffect(() => setReason(lostReason ?? ""), [lostReason]);
  useEffect(() => setNote(lostNote ?? ""), [lostNote]);
  useAnswerToast(fetcher);
  const lost = value === "perdido";
  const unchanged = value === status && (!lost || (reason === (lostReason ?? "") && note === (lostNote ?? "")));
  return (
    <fetcher.Form
      method="post"
      noValidate
      className="grid gap-3"
      onSubmit={(event) => {
        if (lost && !reason) {
          event.preventDefault();
          setError(LOSS_MESSAGES.reasonRequired);
          select.current?.focus();
          return;
        }
        setError(undefined);
      }}
    >
      <input type="hidden" name="intent" value="status" />
      <div className="flex flex-wrap items-end gap-2">
        <FormField label="Status" className="w-full sm:w-auto sm:min-w-48 sm:flex-1">
          <NativeSelect name="status" value={value} onChange={(event) => setValue(event.target.value as LeadStatus)}>
            {LEAD_STATUSES.map((option) => (
              <option key={option} value={option}>
                {LEAD_STATUS_LABELS[option]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        {!lost && (
          <Button type="submit" variant="outline" disabled={fetcher.state !== "idle" || unchanged}>
            {fetcher.state !== "idle" ? "Salvando..." : "Mudar status"}
          </Button>
        )}
      </div>
      {lost && (
        <>
          <LossFields
            reasons={reasons}
            current={lostReason}
            reasonError={error}
            noteLength={note.length}
            selectProps={{ ref: select, name: "lost_reason", value: reason, onChange: (event) => setReason(event.target.value) }}
            noteProps={{ name: "lost_note", value: note, onChange: (event) => setNote(event.target.value) }}
          />
          <div>
            <Button type="submit" variant="outline" disabled={fetcher.state !== "idle" || unchanged}>
              {fetcher.state !== "idle" ? "Salvando..." : status === "perdido" ? "Salvar motivo" : "Mudar status"}
            </Button>
          </div>
        </>
      )}
    </fetcher.Form>
  );
}

export function LeadNextContactForm({ leadId, nextContactAt }: { leadId: string; nextContactAt: string | null }) {
  const fetcher = useFetcher<ActionAnswer>({ key: `lead-next-${leadId}` });
  const current = nextContactAt ? toBrokerDateTimeInput(nextContactAt) : "";
  const [value, setValue] = useState(current);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => setValue(current), [current]);
  useAnswerToast(fetcher);
  const saving = fetcher.state !== "idle";
  const overdue = nextContactAt !== null && new Date(nextContactAt).getTime() < Date.now();

  const save = (next: string) => {
    const parsed = nextContactSchema.safeParse({ next_contact_at: next });
    if (!parsed.success) {
      setError(firstIssueMessage(parsed.error));
      return;
    }
    setError(undefined);
    fetcher.submit({ intent: "next_contact", next_contact_at: next }, { method: "post" });
  };

  return (
    <fetcher.Form
      method="post"
      noValidate
      className="grid gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        save(value);
      }}
    >
      <input type="hidden" name="intent" value="next_contact" />
      <p className="text-sm" aria-live="polite">
        {nextContactAt ? (
          <>
            {overdue ? <strong className="text-destructive">Atrasado: </strong> : "Agendado para "}
            <time dateTime={nextContactAt} className="font-semibold">
              {formatDateTime(nextContactAt)}
            </time>
          </>
        ) : (
          <span className="text-muted-foreground">Nenhum próximo contato definido.</span>
        )}
      </p>
      <FormField label="Próximo contato (data e hora)" error={error}>
        <Input type="datetime-local" name="next_contact_at" value={value} onChange={(event) => setValue(event.target.value)} />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={saving || value === current}>
          {saving ? "Salvando..." : "Salvar próximo contato"}
        </Button>
        {nextContactAt && (
          <Button
            variant="outline"
            disabled={saving}
            onClick={() => {
              setValue("");
              save("");
            }}
          >
            Limpar
          </Button>
        )}
      </div>
    </fetcher.Form>
  );
}

export function LeadNoteForm({ leadId }: { leadId: string }) {
  const fetcher = useFetcher<ActionAnswer>({ key: `lead-note-${leadId}` });
  const [body, setBody] = useState("");
  const [error, setError] = useState<string | undefined>();
  const textarea = useRef<HTMLTextAreaElement>(null);
  // A saved note leaves the box empty for the next one.
  useAnswerToast(fetcher, () => setBody(""));
  const saving = fetcher.state !== "idle";
  return (
    <fetcher.Form
      method="post"
      noValidate
      className="grid gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = noteSchema.safeParse({ body });
        if (!parsed.success) {
          setError(firstIssueMessage(parsed.error));
          textarea.current?.focus();
          return;
        }
        setError(undefined);
        fetcher.submit({ intent: "note", body }, { method: "post" });
      }}
    >
      <input type="hidden" name="intent" value="note" />
      <FormField label="Nova nota" error={error} hint={`${body.length}/${NOTE_MAX} caracteres`}>
        <Textarea
          ref={textarea}
          name="body"
          rows={3}
          maxLength={NOTE_MAX}
          value={body}
          placeholder="O que foi conversado, o que ficou combinado…"
          onChange={(event) => setBody(event.target.value)}
        />
      </FormField>
      <div>
        <Button type="submit" disabled={saving}>
          {saving ? "Salvando..." : "Adicionar nota"}
        </Button>
      </div>
    </fetcher.Form>
  );
}
