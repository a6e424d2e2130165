"use client";
// Make a protection public or private (PATCH /v1/consumer/protections/{id}), after saying what
// that shows or hides. A protection minted private is logged sealed; making it public publishes
// the opening of its entry with its proof.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { ConfirmDialog } from "@/app/_components/api-keys-dialog";
import { Button } from "@/app/_components/ui";
import type { ProtectionItem } from "./protect-types";

export function VisibilityToggle({ p, name }: { p: ProtectionItem; name: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const next = p.visibility === "public" ? "private" : "public";
  const change = useMutation(
    trpc.consumer.setVisibility.mutationOptions({
      onSuccess: () => {
        setAsking(false);
        void queryClient.invalidateQueries({ queryKey: trpc.consumer.protections.pathKey() });
      },
    }),
  );
  return (
    <>
      <Button ref={button} variant="secondary" className="px-3 py-1.5 text-sm" onClick={() => setAsking(true)}>
        {next === "public" ? "Make public" : "Make private"}
        <span className="sr-only"> {name}</span>
      </Button>
      <ConfirmDialog
        open={asking}
        title={next === "public" ? `Make “${name}” public?` : `Make “${name}” private?`}
        description={
          next === "public" ? (
            <>
              <p>
                Its verify and share pages will show it to anyone with the link, with its title, description, file name and your name, your
                portfolio will list it, and anyone who looks up its file (or a picture like it) will find it.
              </p>
              <p className="mt-2">
                Its proof will carry the opening of its sealed entry in the public log, so anyone can check it. What is public can be
                copied, and making it private later does not take copies back.
              </p>
            </>
          ) : (
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
          )
        }
        confirmLabel={next === "public" ? "Make public" : "Make private"}
        pendingLabel="Saving…"
        tone="primary"
        pending={change.isPending}
        error={change.error ? change.error.message : null}
        onConfirm={() => change.mutate({ id: p.protection_id, visibility: next })}
        onCancel={() => setAsking(false)}
        returnFocus={button}
      />
    </>
  );
}
