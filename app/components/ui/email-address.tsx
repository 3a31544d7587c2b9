import { Fragment } from "react";

/**
 * An e-mail address that wraps where a reader expects it (issue 21): after the '@' and before a
 * dot, offered to the browser with <wbr>; only a part too long for a whole line breaks inside
 * (overflow-wrap: anywhere), so the address never runs past its box. The text stays the address:
 * copying it gives it back whole.
 */
export function EmailAddress({ email }: { email: string }) {
  const [local, domain] = splitAt(email);
  return (
    <span className="[overflow-wrap:anywhere]">
      {beforeDots(local)}
      {domain !== null && (
        <>
          @<wbr />
          {beforeDots(domain)}
        </>
      )}
    </span>
  );
}

function splitAt(email: string): [string, string | null] {
  const at = email.lastIndexOf("@");
  return at < 0 ? [email, null] : [email.slice(0, at), email.slice(at + 1)];
}

/** "a.b.c" as a, <wbr>.b, <wbr>.c */
function beforeDots(text: string) {
  return text.split(".").map((part, index) => (
    <Fragment key={index}>
      {index > 0 && (
        <>
          <wbr />.
        </>
      )}
      {part}
    </Fragment>
  ));
}
