"use client";
// Make a protection public or private (PATCH /v1/consumer/protections/{id}), after saying what
// that shows or hides. Public asks for the current password (make-public-dialog.tsx); private
// only for a confirmation, since it hides and publishes nothing.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { ConfirmDialog } from "@/app/_components/api-keys-dialog";
import { Button } from "@/app/_components/ui";
import { MakePublicDialog } from "./make-public-dialog";
import type { ProtectionItem } from "./protect-types";

export function VisibilityToggle({ p, name }: { p: ProtectionItem; name: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const next = p.visibility === "public" ? "private" : "public";
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.consumer.protections.pathKey() });
  const change = useMutation(
    trpc.consumer.setVisibility.mutationOptions({
      onSuccess: () => {
        setAsking(false);
        refresh();
      },
    }),
  );
  return (
    <>
      <Button ref={button} variant="secondary" className="px-3 py-1.5 text-sm" onClick={() => setAsking(true)}>
        {next === "public" ? "Make public" : "Make private"}
        <span className="sr-only"> {name}</span>
      </Button>
      {next === "public" ? (
        <MakePublicDialog
          p={p}
          name={name}
          open={asking}
          onClose={() => setAsking(false)}
          onDone={() => {
            setAsking(false);
            refresh();
          }}
          returnFocus={button}
        />
      ) : (
        <ConfirmDialog
          open={asking}
          title={`Make “${name}” private?`}
          description={
            <>
              <p>
                From now on only you will see its pages and proof: anyone else who opens its links, or looks up its file, is told of
                nothing, as if it did not exist.
              </p>
              <p className="mt-2">
                {p.sealed
                  ? "What was public may have been copied already; its log entry stays sealed."
                  : "What was public may have been copied already. It was logged while public, so its entry in the public log stays readable: the log never changes."}
              </p>
            </>
          }
          confirmLabel="Make private"
          pendingLabel="Saving…"
          tone="primary"
          pending={change.isPending}
          error={change.error ? change.error.message : null}
          onConfirm={() => change.mutate({ id: p.protection_id, visibility: "private" })}
          onCancel={() => setAsking(false)}
          returnFocus={button}
        />
      )}
    </>
  );
}
