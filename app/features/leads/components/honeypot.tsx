import { HONEYPOT_FIELD } from "../messages";

/** Invisible to people (and to screen readers); bots that fill every input fill this one too. */
export function Honeypot() {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor={`hp-${HONEYPOT_FIELD}`}>Deixe este campo vazio</label>
      <input id={`hp-${HONEYPOT_FIELD}`} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
