import { AlertDialog } from "radix-ui";
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { ANONYMIZED } from "../markers";

/**
 * 'Anonimizar' behind a confirmation that names the person and how many leads change. Focus
 * starts on Cancelar (radix AlertDialog), so an Enter pressed by reflex erases nothing. The
 * lead ids shown are posted with the request: the server refuses if the person's leads differ.
 */
export function AnonymizeDialog({ anchorId, name, leadIds }: { anchorId: string; name: string; leadIds: string[] }) {
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher<ActionAnswer>({ key: "privacy-anonymize" });
  const busy = fetcher.state !== "idle";
  // The answer is toasted by PersonView (useAnonymizeAnswerToast): after a success this dialog is gone.
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) setOpen(false);
  }, [fetcher.state, fetcher.data]);
  const count = leadIds.length;
  const leadsText = `${count} ${count === 1 ? "lead" : "leads"}`;
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      <AlertDialog.Trigger asChild>
        <Button variant="destructive">
          <Icon name="trash-2" /> Anonimizar
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-2xl">
          <AlertDialog.Title className="text-lg font-bold">Anonimizar os dados de {name}?</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 grid gap-2 text-sm text-muted-foreground">
              <p>
                O nome, o telefone, o e-mail e os textos livres de <strong className="text-foreground">{leadsText}</strong> — com as
                anotações, as visitas e os e-mails sobre eles — serão trocados por “{ANONYMIZED.name}”.
              </p>
              <p>Os registros continuam existindo (status, origem e datas), para que os relatórios não mudem. Esta ação não pode ser desfeita.</p>
            </div>
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClass("outline")} disabled={busy}>
              Cancelar
            </AlertDialog.Cancel>
            <Button
              variant="destructive"
              disabled={busy}
              onClick={() =>
                fetcher.submit({ intent: "anonymize", lead: anchorId, leadIds }, { method: "post", action: "/crm/privacidade", encType: "application/json" })
              }
            >
              {busy ? "Anonimizando..." : `Anonimizar ${leadsText}`}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** Toasts the anonymisation's answer from a component that stays on the page afterwards. */
export function useAnonymizeAnswerToast() {
  useAnswerToast(useFetcher<ActionAnswer>({ key: "privacy-anonymize" }));
}
