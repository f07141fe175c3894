import { textParts } from '../lib/links';

/**
 * A message's text as plain text (line breaks kept, never read as HTML); http(s) addresses open in
 * a new tab without handing this page to the site.
 */
export function MessageText({ body }: { body: string }) {
  return (
    <p className="text-sm break-words whitespace-pre-wrap text-slate-800">
      {textParts(body).map((part, i) =>
        part.kind === 'url' ? (
          <a key={i} href={part.text} target="_blank" rel="noopener noreferrer" className="text-brand-700 underline underline-offset-2 hover:text-brand-800">
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}
