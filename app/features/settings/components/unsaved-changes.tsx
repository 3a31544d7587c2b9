import { useCallback, useEffect, useRef, useState } from "react";
import { useBlocker } from "react-router";
import { AlertDialog } from "radix-ui";
import { Button, buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import type { SettingsAnswer, SettingsIntent } from "../keys";

/**
 * The settings page has one save button per section (issue 21: changes were easy to lose). Each
 * section knows whether its form differs from what was last saved, says so beside its title
 * ('Alterações não salvas' / 'Salvo'), and the page asks before leaving while any section has
 * changes: React Router's blocker for links inside the app, the browser's own question
 * (beforeunload) for a reload, a closed tab or another site.
 */

/** What a form would send: the same string for the same values. */
function serialize(form: HTMLFormElement): string {
  return JSON.stringify([...new FormData(form).entries()].map(([name, value]) => [name, typeof value === "string" ? value : value.name]));
}

export type SectionState = "clean" | "dirty" | "saved";

/**
 * Tracks one section's form against its last saved values. `onInput` goes on the form (typing);
 * every render checks again too, for changes made through state (a photo, a template removed).
 */
export function useSectionChanges(
  fetcher: { state: string; data?: SettingsAnswer },
  intent: SettingsIntent,
  onDirtyChange: (dirty: boolean) => void,
) {
  const formRef = useRef<HTMLFormElement>(null);
  const saved = useRef<string | null>(null);
  const [state, setState] = useState<SectionState>("clean");
  const [resnapshot, setResnapshot] = useState(0);
  const handled = useRef<SettingsAnswer | undefined>(undefined);
  const report = useRef(onDirtyChange);
  report.current = onDirtyChange;

  const check = useCallback(() => {
    const form = formRef.current;
    if (!form || saved.current === null) return;
    const dirty = serialize(form) !== saved.current;
    setState((current) => (dirty ? "dirty" : current === "dirty" ? "clean" : current));
  }, []);

  // The values as loaded; again after a save, once the page shows what the server kept.
  useEffect(() => {
    if (formRef.current) saved.current = serialize(formRef.current);
    check();
  }, [resnapshot, check]);
  useEffect(() => {
    const answer = fetcher.data;
    if (fetcher.state !== "idle" || !answer || handled.current === answer || answer.intent !== intent) return;
    handled.current = answer;
    if (answer.ok) {
      // No comparing with the old values meanwhile: the next render holds what was kept.
      saved.current = null;
      setState("saved");
      setResnapshot((count) => count + 1);
    }
  }, [fetcher.state, fetcher.data, intent]);
  useEffect(check);
  useEffect(() => report.current(state === "dirty"), [state]);

  return { formRef, onInput: check, state };
}

/** Beside a section's title: whether its changes are saved (announced politely). */
export function SectionStatus({ state }: { state: SectionState }) {
  return (
    <span role="status" className="text-sm font-medium" data-section-state={state}>
      {state === "dirty" && (
        <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2.5 py-0.5 text-amber-900">
          <Icon name="pencil" className="size-3.5" /> Alterações não salvas
        </span>
      )}
      {state === "saved" && (
        <span className="inline-flex items-center gap-1 rounded-full bg-emerald-100 px-2.5 py-0.5 text-emerald-900">
          <Icon name="check" className="size-3.5" /> Salvo
        </span>
      )}
    </span>
  );
}

/** Asks before leaving the page while `sections` (their titles) have unsaved changes. */
export function LeaveGuard({ sections }: { sections: string[] }) {
  const dirty = sections.length > 0;
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers need a value; the text shown is the browser's own.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);
  const open = blocker.state === "blocked";
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && blocker.reset?.()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-2xl">
          <AlertDialog.Title className="text-lg font-bold">Sair sem salvar?</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-muted-foreground">
            Há alterações não salvas em: {sections.join(", ")}. Se sair agora, elas serão perdidas.
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClass("default")}>Continuar editando</AlertDialog.Cancel>
            <Button variant="outline" onClick={() => blocker.proceed?.()}>
              Sair sem salvar
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
