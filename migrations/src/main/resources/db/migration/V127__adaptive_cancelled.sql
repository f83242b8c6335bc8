-- An adaptive campaign whose outstanding jobs an admin cancelled stops as 'cancelled' and asks for no more: without a
-- state of its own it stayed 'running' with nothing outstanding, so that no later run could ever decide for it.
ALTER TABLE campaign_adaptive
    DROP CONSTRAINT campaign_adaptive_state_check,
    ADD CONSTRAINT campaign_adaptive_state_check
        CHECK (state IN ('running', 'target_met', 'budget_spent', 'cancelled'));
