import { useEffect, useRef } from "react";
import { Form, useLocation, useNavigate } from "react-router";
import { Button } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { SEARCH_PARAM } from "~/lib/pagination";

/** How long typing waits before the table follows (the public list's filter waits as long). */
export const SEARCH_DELAY_MS = 300;

/**
 * The search box above a CRM table: a GET form, so the search lives in the URL (and works
 * without JavaScript); with it, the table follows typing after a short pause. A new search starts
 * at page 1 (the form carries no page); the other filters ride along as hidden fields.
 */
export function ListSearch({
  id,
  label,
  placeholder,
  value,
  keep = {},
  children,
}: {
  id: string;
  label: string;
  placeholder?: string;
  value: string;
  /** Other query parameters the search keeps (e.g. a status filter). */
  keep?: Record<string, string | null | undefined>;
  /** More fields of the same form (filters), each with its own label. */
  children?: React.ReactNode;
}) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const form = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const typing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(typing.current), []);

  // The URL changed from elsewhere (a link, Back): show its search, unless the person is typing.
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = value;
  }, [value]);

  // Empty fields stay out of the URL, so a cleared search is the plain address again.
  function go() {
    clearTimeout(typing.current);
    if (!form.current) return;
    const params = new URLSearchParams();
    for (const [name, field] of new FormData(form.current)) if (typeof field === "string" && field.trim()) params.set(name, field.trim());
    const query = params.toString();
    navigate(`${pathname}${query ? `?${query}` : ""}`, { replace: true, preventScrollReset: true });
  }

  return (
    <Form
      ref={form}
      method="get"
      role="search"
      // The landmark's name differs from the box's label, so each is found by its own name.
      aria-label="Buscar e filtrar a lista"
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        go();
      }}
      // A filter among the children (a select) applies as soon as it changes.
      onChange={(event) => {
        if (event.target instanceof HTMLSelectElement) go();
      }}
    >
      {Object.entries(keep).map(([name, kept]) => (kept ? <input key={name} type="hidden" name={name} value={kept} /> : null))}
      <div className="grid min-w-0 flex-1 basis-56 gap-1.5">
        <Label htmlFor={id}>{label}</Label>
        <Input
          ref={input}
          id={id}
          name={SEARCH_PARAM}
          type="search"
          defaultValue={value}
          placeholder={placeholder}
          autoComplete="off"
          maxLength={100}
          onChange={() => {
            clearTimeout(typing.current);
            typing.current = setTimeout(go, SEARCH_DELAY_MS);
          }}
        />
      </div>
      {children}
      <Button type="submit" variant="outline">
        <Icon name="search" /> Buscar
      </Button>
    </Form>
  );
}
