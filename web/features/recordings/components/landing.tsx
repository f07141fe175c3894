import '@web/features/recordings/i18n';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Play } from 'lucide-react';
import { formatMoment } from '@contract/recordings-limits';
import { Button } from '@web/components/ui/button';
import type { PlayerHandle } from './recording-player';

/** What a "Neues Feedback" address asks of one take (web/lib/feedback-landing.ts). */
export type TakeLanding = { atMs: number | null; commentId: number | null };

/**
 * Lands on a take once: scrolls it into view and plays from the comment's moment. The click that
 * followed the link counts as the user's gesture in the same document; when the browser refuses to
 * start anyway, the take shows "Ab hier abspielen", focused (docs/decisions/spoken-comments-and-quick-replies.md).
 */
export function useLandOnMoment(landing: TakeLanding | null | undefined, player: RefObject<PlayerHandle | null>, target: RefObject<HTMLElement | null>) {
  const [refusedAt, setRefusedAt] = useState<number | null>(null);
  const done = useRef(false);
  useEffect(() => {
    if (!landing || done.current) return;
    done.current = true;
    const into = () => target.current?.scrollIntoView({ block: 'start' });
    into();
    if (landing.atMs === null) return;
    const at = landing.atMs;
    void player.current?.playFrom(at).then((ok) => {
      // what loaded above it meanwhile may have moved it
      into();
      if (!ok) setRefusedAt(at);
    });
  }, [landing, player, target]);
  return { refusedAt, clear: () => setRefusedAt(null) };
}

/** "Ab hier abspielen (0:42)": focused when it appears, plays from the moment with this click. */
export function PlayFromHere({ atMs, onPlay }: { atMs: number; onPlay: () => void }) {
  const { t } = useTranslation('recordings');
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-lg bg-amber-50 px-3 py-2 ring-1 ring-amber-200 ring-inset" data-testid="play-from-here">
      <Button ref={ref} size="sm" icon={<Play aria-hidden="true" className="size-4 fill-current" />} onClick={onPlay}>
        {t('landing.play', { time: formatMoment(atMs) })}
      </Button>
      <span className="text-xs text-slate-700">{t('landing.refused')}</span>
    </div>
  );
}
