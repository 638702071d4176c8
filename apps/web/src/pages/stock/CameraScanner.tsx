import { Alert, Flex, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useCtx } from '../../kit/useCtx.ts';
import { makeDetector } from './barcodeDetector.ts';

/** How many looks without a code before the same code counts again (it left the picture). */
export const GONE_AFTER = 6;
const LOOK_MS = 120;

/**
 * Counts a code once while it stays in the picture: a code seen is handed over, then ignored
 * until it has been missing from `GONE_AFTER` looks in a row (the item was put down; the next
 * is held up). Pure, for tests.
 */
export function sightings() {
  let held: string | null = null;
  let missing = 0;
  return (codes: readonly string[]): string | null => {
    if (held !== null) {
      if (codes.includes(held)) {
        missing = 0;
        return null;
      }
      missing += 1;
      if (missing < GONE_AFTER) return null;
      held = null;
    }
    const code = codes[0];
    if (code === undefined) return null;
    held = code;
    missing = 0;
    return code;
  };
}

type State = 'starting' | 'looking' | 'denied' | 'missing' | 'failed';

/** The phone's camera as a scanner: each barcode held up in front of it is one `onCode`. */
export function CameraScanner({ onCode }: { onCode: (code: string) => void }) {
  const { t } = useCtx();
  const video = useRef<HTMLVideoElement>(null);
  const handler = useRef(onCode);
  handler.current = onCode;
  const [state, setState] = useState<State>('starting');

  useEffect(() => {
    let alive = true;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const seen = sightings();
    (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia)
          throw Object.assign(new Error('no camera'), { name: 'NotFoundError' });
        const [media, detector] = await Promise.all([
          navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false }),
          makeDetector(),
        ]);
        stream = media;
        const element = video.current;
        if (!alive || !element) return;
        element.srcObject = media;
        await element.play();
        setState('looking');
        const look = async () => {
          if (!alive) return;
          if (element.readyState >= 2) {
            const found = await detector.detect(element).catch(() => []);
            const code = seen(found.map((f) => f.rawValue));
            if (code && alive) handler.current(code);
          }
          timer = setTimeout(() => void look(), LOOK_MS);
        };
        void look();
      } catch (error) {
        if (!alive) return;
        const name = (error as { name?: string }).name;
        setState(name === 'NotAllowedError' ? 'denied' : name === 'NotFoundError' ? 'missing' : 'failed');
      }
    })();
    return () => {
      alive = false;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);

  const problem = { denied: 'counts.cameraDenied', missing: 'counts.cameraMissing', failed: 'counts.cameraFailed' };
  return (
    <Flex vertical gap={8} data-testid="count-camera">
      {state in problem ? (
        <Alert type="warning" showIcon message={t(problem[state as keyof typeof problem])} />
      ) : (
        <Typography.Text type="secondary" data-testid="count-camera-state">
          {state === 'starting' ? t('counts.cameraStarting') : t('counts.cameraLooking')}
        </Typography.Text>
      )}
      <video
        ref={video}
        muted
        playsInline
        aria-label={t('counts.camera')}
        style={{
          width: '100%',
          maxHeight: '36vh',
          objectFit: 'cover',
          borderRadius: 8,
          background: '#000',
          display: state === 'starting' || state === 'looking' ? 'block' : 'none',
        }}
      />
    </Flex>
  );
}
