import { useEffect, useRef } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { useFetcher } from "react-router";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { OPTIONS_PARAM } from "../labels";
import type { VisitsPageData } from "../page.server";

/**
 * The lead and listing pickers of the visit dialog and the WhatsApp-lead dialog: a search box and
 * a native select. The server searches thousands of records (the agenda's /crm/visitas?opcoes=1,
 * staff only, 20 at a time: pickers.server.ts), and the select is what a screen reader and a phone
 * handle best. Typing refreshes the choices.
 */

const SEARCH_DELAY_MS = 300;

/** `param`: the search's query parameter (lead or listing). `loadWhen`: load the first choices when it becomes true. */
export function usePickerSearch(param: string, loadWhen?: boolean) {
  const fetcher = useFetcher<VisitsPageData>();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const load = fetcher.load;
  const run = (text: string) => load(`/crm/visitas?${new URLSearchParams({ [OPTIONS_PARAM]: "1", [param]: text.trim() })}`);
  useEffect(() => {
    if (loadWhen) void run("");
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per opening
  }, [loadWhen]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return {
    data: fetcher.data,
    searching: fetcher.state !== "idle",
    search(text: string) {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void run(text), SEARCH_DELAY_MS);
    },
  };
}

/** The search box and the select of one picker (inside the caller's fieldset). */
export function RecordPicker({
  searchLabel,
  picker,
  label,
  error,
  emptyLabel,
  options,
  select,
}: {
  searchLabel: string;
  picker: { searching: boolean; search(text: string): void };
  label: string;
  error?: string;
  emptyLabel: string;
  options: { id: string; label: string }[];
  select: UseFormRegisterReturn;
}) {
  return (
    <>
      <FormField label={searchLabel} hint={picker.searching ? "Buscando..." : undefined}>
        <Input type="search" autoComplete="off" maxLength={100} onChange={(event) => picker.search(event.target.value)} />
      </FormField>
      <FormField label={label} error={error}>
        <NativeSelect {...select}>
          <option value="">{emptyLabel}</option>
          {options.map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      </FormField>
    </>
  );
}
