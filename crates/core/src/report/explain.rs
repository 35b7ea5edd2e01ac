//! Plain explanations of the report's statistics, one per [`Topic`], so every number the page
//! shows can say what it is where it stands. The texts quote the report's own settings (level,
//! α, target Δ, K′, B), so they describe the numbers beside them, not a default.

use crate::stats::power::MDE_MULTIPLIER;
use crate::text::{count, points};

use super::paired_analysis::SMALL_BINARY_TASKS;
use super::settings::ReportSettings;
use super::verdict::MIN_PAIRED_TASKS;

/// A statistic (or a kind of number) the report shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Topic {
    /// The task-weighted mean: each task's mean, averaged over tasks.
    TaskWeightedMean,
    /// The pooled mean over all included samples.
    PooledMean,
    /// The platform's own `reward_mean` (or a Chronicle job's pass rate).
    PlatformMean,
    /// The paired Δ and its analyses.
    Delta,
    /// The primary analysis (paired tasks, included samples).
    PrimaryAnalysis,
    /// The sensitivity analysis (union of tasks, failed and absent as 0).
    SensitivityAnalysis,
    /// Standard error of Δ.
    StandardError,
    /// The t interval of Δ.
    TInterval,
    /// The z (normal) interval of Δ.
    ZInterval,
    /// Tango's score interval for paired binary outcomes.
    TangoInterval,
    /// Which interval the headline uses.
    HeadlineInterval,
    /// The anytime-valid confidence sequence of a running comparison.
    AnytimeValid,
    /// The paired bootstrap's percentile interval.
    BootstrapPercentile,
    /// The bias-corrected and accelerated bootstrap interval.
    Bca,
    /// Intervals clustered by category.
    Clustered,
    /// The paired t-test.
    PairedT,
    /// Wilcoxon's signed-rank test, Pratt's zero handling.
    WilcoxonPratt,
    /// Wilcoxon's signed-rank test with zero deltas dropped.
    WilcoxonZerosDropped,
    /// The exact sign test.
    SignTest,
    /// McNemar's exact test and its mid-p.
    McNemar,
    /// Wins, ties and losses per task.
    WinTieLoss,
    /// Correlation of the two runs' task scores.
    Correlation,
    /// Minimum detectable effect.
    Mde,
    /// Tasks needed to detect the target Δ.
    TasksNeeded,
    /// The MDE projected to K′ samples per task.
    MdeProjection,
    /// Holm and Benjamini–Hochberg adjusted p-values.
    HolmBh,
    /// pass@k (and pass^k).
    PassAtK,
    /// Δ per task category and its correction across categories.
    CategoryDelta,
    /// Tasks whose samples disagree.
    FlakyTasks,
    /// The platform's own progression of a training run beside ours.
    PlatformProgression,
    /// The verdict of a candidate.
    Verdict,
    /// The change in turns per task beside the verdict (the effort section).
    Turns,
    /// The change in tokens per task beside the verdict (read from the transcripts).
    Tokens,
    /// The change in steps per Chronicle trial beside the verdict (read from its details).
    TrialSteps,
    /// The change in duration per Chronicle trial beside the verdict.
    TrialDuration,
    /// The change in cost per task beside the verdict (the cost section).
    Cost,
}

impl Topic {
    /// Every topic, in the order a glossary lists them.
    pub const ALL: [Topic; 36] = [
        Topic::Verdict,
        Topic::Delta,
        Topic::PrimaryAnalysis,
        Topic::SensitivityAnalysis,
        Topic::TaskWeightedMean,
        Topic::PooledMean,
        Topic::PlatformMean,
        Topic::StandardError,
        Topic::HeadlineInterval,
        Topic::TInterval,
        Topic::ZInterval,
        Topic::TangoInterval,
        Topic::AnytimeValid,
        Topic::BootstrapPercentile,
        Topic::Bca,
        Topic::Clustered,
        Topic::PairedT,
        Topic::WilcoxonPratt,
        Topic::WilcoxonZerosDropped,
        Topic::SignTest,
        Topic::McNemar,
        Topic::WinTieLoss,
        Topic::Correlation,
        Topic::Mde,
        Topic::TasksNeeded,
        Topic::MdeProjection,
        Topic::HolmBh,
        Topic::CategoryDelta,
        Topic::FlakyTasks,
        Topic::PassAtK,
        Topic::PlatformProgression,
        Topic::Turns,
        Topic::Tokens,
        Topic::TrialSteps,
        Topic::TrialDuration,
        Topic::Cost,
    ];

    /// The topic's name, as a heading or within its [`Topic::question`].
    pub fn title(self) -> &'static str {
        match self {
            Topic::TaskWeightedMean => "the task-weighted mean",
            Topic::PooledMean => "the pooled mean",
            Topic::PlatformMean => "the platform's mean",
            Topic::Delta => "Δ",
            Topic::Turns => "the change in turns",
            Topic::Tokens => "the change in tokens",
            Topic::TrialSteps => "the change in steps per trial",
            Topic::TrialDuration => "the change in duration per trial",
            Topic::Cost => "the change in cost",
            Topic::PrimaryAnalysis => "the primary analysis",
            Topic::SensitivityAnalysis => "the sensitivity analysis",
            Topic::StandardError => "the standard error",
            Topic::TInterval => "the t interval",
            Topic::ZInterval => "the z interval",
            Topic::TangoInterval => "Tango's score interval",
            Topic::HeadlineInterval => "the headline interval",
            Topic::AnytimeValid => "the anytime-valid interval",
            Topic::BootstrapPercentile => "the bootstrap percentile interval",
            Topic::Bca => "the BCa interval",
            Topic::Clustered => "the clustered interval",
            Topic::PairedT => "the paired t-test",
            Topic::WilcoxonPratt => "Wilcoxon's test (Pratt)",
            Topic::WilcoxonZerosDropped => "Wilcoxon's test (zeros dropped)",
            Topic::SignTest => "the sign test",
            Topic::McNemar => "McNemar's test",
            Topic::WinTieLoss => "wins, ties and losses",
            Topic::Correlation => "the correlation of task scores",
            Topic::Mde => "the minimum detectable effect",
            Topic::TasksNeeded => "the tasks needed for the target Δ",
            Topic::MdeProjection => "the MDE at K′ samples per task",
            Topic::HolmBh => "Holm and BH adjusted p-values",
            Topic::PassAtK => "pass@k",
            Topic::CategoryDelta => "the Δ per category",
            Topic::FlakyTasks => "a flaky task",
            Topic::PlatformProgression => "the platform's own progression",
            Topic::Verdict => "the verdict",
        }
    }

    /// The question the page's "?" asks about the topic: "What is the pooled mean?", "What
    /// are wins, ties and losses?".
    pub fn question(self) -> String {
        let verb = match self {
            Topic::WinTieLoss | Topic::HolmBh => "are",
            _ => "is",
        };
        format!("What {verb} {}?", self.title())
    }

    /// A stable lowercase name, for element ids and anchors.
    pub fn slug(self) -> &'static str {
        match self {
            Topic::TaskWeightedMean => "task-weighted-mean",
            Topic::PooledMean => "pooled-mean",
            Topic::PlatformMean => "platform-mean",
            Topic::Delta => "delta",
            Topic::Turns => "turns",
            Topic::Tokens => "tokens",
            Topic::TrialSteps => "trial-steps",
            Topic::TrialDuration => "trial-duration",
            Topic::Cost => "cost",
            Topic::PrimaryAnalysis => "primary-analysis",
            Topic::SensitivityAnalysis => "sensitivity-analysis",
            Topic::StandardError => "standard-error",
            Topic::TInterval => "t-interval",
            Topic::ZInterval => "z-interval",
            Topic::TangoInterval => "tango-interval",
            Topic::HeadlineInterval => "headline-interval",
            Topic::AnytimeValid => "anytime-valid",
            Topic::BootstrapPercentile => "bootstrap-percentile",
            Topic::Bca => "bca",
            Topic::Clustered => "clustered",
            Topic::PairedT => "paired-t",
            Topic::WilcoxonPratt => "wilcoxon-pratt",
            Topic::WilcoxonZerosDropped => "wilcoxon-zeros-dropped",
            Topic::SignTest => "sign-test",
            Topic::McNemar => "mcnemar",
            Topic::WinTieLoss => "win-tie-loss",
            Topic::Correlation => "correlation",
            Topic::Mde => "mde",
            Topic::TasksNeeded => "tasks-needed",
            Topic::MdeProjection => "mde-projection",
            Topic::HolmBh => "holm-bh",
            Topic::PassAtK => "pass-at-k",
            Topic::CategoryDelta => "category-delta",
            Topic::FlakyTasks => "flaky-tasks",
            Topic::PlatformProgression => "platform-progression",
            Topic::Verdict => "verdict",
        }
    }
}

/// What `topic` means, in a few plain sentences quoting `settings`.
pub fn explain(topic: Topic, settings: &ReportSettings) -> String {
    let level = format!("{}%", (settings.level * 100.0).round());
    let alpha = settings.alpha;
    match topic {
        Topic::Turns => super::words::TURNS_EXPLAINED.to_owned(),
        Topic::Tokens => super::words::TOKENS_EXPLAINED.to_owned(),
        Topic::TrialSteps => super::words::TRIAL_STEPS_EXPLAINED.to_owned(),
        Topic::TrialDuration => super::words::TRIAL_DURATION_EXPLAINED.to_owned(),
        Topic::Cost => super::words::COST_EXPLAINED.to_owned(),
        Topic::TaskWeightedMean => "Each task's score is the mean of its included samples; this \
            is the mean of those task scores, every task counting once however many samples \
            it has. The paired analysis compares these per-task scores, so this is the mean \
            the headline Δ is a difference of."
            .to_owned(),
        Topic::PooledMean => "The mean over every included sample of the run, pooled across \
            tasks: a task with more samples weighs more. It estimates what the platform's own \
            mean reports; it differs from the task-weighted mean when tasks have different \
            numbers of samples."
            .to_owned(),
        Topic::PlatformMean => "The run's mean as the platform reports it (reward_mean over \
            its trajectories, or a Chronicle job's pass rate), shown as recorded and not \
            recomputed. It can count samples this report leaves out (failed or unfinished \
            ones) and weighs tasks by their sample count."
            .to_owned(),
        Topic::Delta => "Δ is the candidate's mean minus the baseline's over the paired tasks: \
            for each task both runs scored, the difference of the two task scores, averaged \
            over tasks. It is written in points (1 point = 0.01 of reward)."
            .to_owned(),
        Topic::PrimaryAnalysis => "The headline analysis by default: only tasks with at least \
            one included sample in both runs, each task's score the mean of its included \
            samples. Tasks left out are counted by reason beside it."
            .to_owned(),
        Topic::SensitivityAnalysis => "The same comparison over every task either run has, \
            with failed and absent samples counted as 0. When it disagrees with the primary \
            analysis, the tasks the primary analysis leaves out could change the answer, and \
            the verdict says unreliable."
            .to_owned(),
        Topic::StandardError => "How far Δ would typically move if the tasks were drawn again: \
            the standard deviation of the per-task differences divided by the square root of \
            the number of tasks. Pairing makes it smaller when the runs' task scores are \
            correlated."
            .to_owned(),
        Topic::TInterval => format!(
            "Δ ± the t critical value (n − 1 degrees of freedom) times the standard error: a \
             {level} confidence interval that assumes the mean of the differences is close to \
             normal, which holds for a few dozen tasks or more."
        ),
        Topic::ZInterval => format!(
            "Δ ± the normal critical value times the standard error ({level}), as Miller's \
             'Adding error bars to evals' writes it. Slightly narrower than the t interval; \
             shown for comparison, not used for the verdict."
        ),
        Topic::TangoInterval => format!(
            "For one pass/fail sample per task, the interval of the difference of two paired \
             proportions found by inverting Tango's score test. It keeps its coverage at small \
             n, where the normal interval is too narrow (Bowyer et al. 2025), so the headline \
             uses it below {} tasks.",
            count(SMALL_BINARY_TASKS as u64)
        ),
        Topic::HeadlineInterval => format!(
            "The interval the headline and the verdict use: Tango's score interval when every \
             task has one pass/fail sample in each run and there are fewer than {} paired \
             tasks, otherwise the t interval, at {level}.",
            count(SMALL_BINARY_TASKS as u64)
        ),
        Topic::AnytimeValid => format!(
            "A confidence sequence (Howard, Ramdas, McAuliffe & Sekhon 2021): a {level} \
             interval that holds at every number of tasks at once, so it stays valid however \
             often a running comparison is looked at and refreshed. Wider than the fixed-n \
             interval; shown only while a compared run is running."
        ),
        Topic::BootstrapPercentile => format!(
            "Resamples the paired tasks with replacement {} times (seed {}) and takes the \
             middle {level} of the resampled Δs. Makes no normality assumption.",
            count(settings.resamples as u64),
            settings.seed
        ),
        Topic::Bca => "The bootstrap interval corrected for bias (how many resampled Δs fall \
            below the estimate) and for skew (the acceleration, from leaving out one task at \
            a time). More accurate than the percentile interval when the differences are \
            skewed."
            .to_owned(),
        Topic::Clustered => "Tasks of one category can succeed or fail together. The clustered \
            interval uses a cluster-robust standard error over the categories (t with C − 1 \
            degrees of freedom), and the clustered bootstrap resamples whole categories; both \
            are wider when categories move together."
            .to_owned(),
        Topic::PairedT => format!(
            "Tests whether the mean per-task difference is 0: t = Δ / SE with n − 1 degrees of \
             freedom. Its p-value, adjusted across candidates, is the headline test; below \
             α = {alpha} it is significant."
        ),
        Topic::WilcoxonPratt => "A rank test of the per-task differences that does not assume \
            normality. Pratt's variant ranks the zero differences with the others and then \
            leaves them out of the sum, so many tied tasks do not inflate the evidence."
            .to_owned(),
        Topic::WilcoxonZerosDropped => "The same signed-rank test with zero differences dropped \
            before ranking (scipy's default), shown for parity with other tools. With many \
            ties it can differ from Pratt's variant."
            .to_owned(),
        Topic::SignTest => "Counts the tasks where the candidate scores higher and lower, \
            ignoring ties and sizes, and tests that count with the exact binomial. The most \
            robust test and the least powerful."
            .to_owned(),
        Topic::McNemar => "For one pass/fail sample per task: only the tasks where exactly one \
            run passed count. The exact binomial test on those, and its mid-p (less \
            conservative). Does not apply when tasks have several samples."
            .to_owned(),
        Topic::WinTieLoss => "Tasks where the candidate's task score is higher, equal (within \
            1e-9) or lower than the baseline's."
            .to_owned(),
        Topic::Correlation => "The correlation of the two runs' task scores over the paired \
            tasks. The higher it is, the more pairing narrows the interval compared with \
            comparing two independent means."
            .to_owned(),
        Topic::Mde => format!(
            "The smallest true Δ this comparison would detect with 80% power at α = 0.05 \
             two-sided: {MDE_MULTIPLIER:.3} × sd of the differences / √n (Miller eq. 9). A \
             real difference smaller than this can easily go unseen."
        ),
        Topic::TasksNeeded => format!(
            "How many paired tasks it would take to detect the target Δ of {} points with 80% \
             power at α = 0.05: (2.802 × sd / target)², from this comparison's spread. The \
             target is a setting.",
            points(settings.target_delta)
        ),
        Topic::MdeProjection => format!(
            "The MDE if every task had {} samples per run instead of today's, keeping the \
             same tasks: the spread within tasks shrinks with more samples, the spread between \
             tasks does not (Miller eq. 10). K′ is a setting.",
            match settings.project_samples_per_task {
                Some(k) => format!("K′ = {k}"),
                None => "K′ (by default twice the most samples a paired task has, at least 8)"
                    .to_owned(),
            }
        ),
        Topic::HolmBh => format!(
            "When several candidates are compared, some would look significant by chance. \
             Holm's adjustment keeps the chance of any false 'better' or 'worse' below α = \
             {alpha} (the verdict uses it); Benjamini–Hochberg's keeps the expected share of \
             false findings below α and is less strict."
        ),
        Topic::PassAtK => "For binary rewards with n samples of a task, c passing: the chance \
            that at least one of k samples drawn without replacement passes, 1 − C(n−c, k) / \
            C(n, k) (Chen et al. 2021), averaged over tasks with at least k samples. pass^k is \
            the chance that every one of the k passes, C(c, k) / C(n, k) (τ-bench, Yao et al. \
            2024): how reliably, not how often at best."
            .to_owned(),
        Topic::CategoryDelta => format!(
            "For each task category, the mean of its tasks' paired differences (a task counts \
             in its first category; tasks without one form their own group), with the interval \
             the headline would use for that many tasks. With several categories some look \
             significant by chance, so their p-values are adjusted across the categories (Holm, \
             and Benjamini–Hochberg) at α = {alpha}. A category's contribution, its task count \
             × its Δ / all tasks, says how many of the headline's points it carries."
        ),
        Topic::FlakyTasks => "A task whose samples disagree in a run: for pass/fail rewards, some \
            samples pass and some fail; for other rewards, not all samples score the same. A \
            task with one sample cannot be flaky. Much of Δ resting on flaky tasks means it \
            rests on luck within tasks; more samples per task would steady it."
            .to_owned(),
        Topic::PlatformProgression => format!(
            "What the platform itself reports for the training run: its evaluation series (its \
             reward mean of each checkpoint's evaluation, pooled over trajectories) and its \
             held-out reward by step (its own held-out set). A step is flagged when the \
             platform's mean lies outside our {level} interval of that checkpoint's \
             task-weighted mean: then check what each counts (the platform may include \
             trajectories this report leaves out). The held-out reward is context, not compared."
        ),
        Topic::Verdict => format!(
            "One decision per candidate, by the first rule that applies: not comparable (a \
             blocking audit finding), too few paired tasks (under {MIN_PAIRED_TASKS}), not \
             computable, unreliable (the primary and sensitivity analyses disagree), better or \
             worse (Holm-adjusted p below α = {alpha} and the headline interval excludes 0), \
             no detectable difference (the interval lies within ± the target Δ of {} points), \
             else inconclusive. Marked provisional while a compared run runs, and partial \
             when a compared run was not read completely, failed or was cancelled.",
            points(settings.target_delta)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_topic_has_a_distinct_slug_and_a_text() {
        let settings = ReportSettings::default();
        let mut slugs: Vec<&str> = Topic::ALL.iter().map(|t| t.slug()).collect();
        slugs.sort_unstable();
        slugs.dedup();
        assert_eq!(slugs.len(), Topic::ALL.len());
        for topic in Topic::ALL {
            let text = explain(topic, &settings);
            assert!(text.len() > 60, "{topic:?}: {text}");
            assert!(!text.contains("  "), "{topic:?} has a double space: {text}");
        }
    }

    #[test]
    fn a_plural_topic_is_asked_about_in_the_plural() {
        assert_eq!(
            Topic::HolmBh.question(),
            "What are Holm and BH adjusted p-values?"
        );
        assert_eq!(
            Topic::WinTieLoss.question(),
            "What are wins, ties and losses?"
        );
        assert_eq!(Topic::PooledMean.question(), "What is the pooled mean?");
    }

    #[test]
    fn texts_quote_the_settings() {
        let settings = ReportSettings {
            level: 0.9,
            target_delta: 0.035,
            project_samples_per_task: Some(20),
            resamples: 4000,
            seed: 7,
            ..ReportSettings::default()
        };
        assert!(explain(Topic::TInterval, &settings).contains("90%"));
        assert!(explain(Topic::TasksNeeded, &settings).contains("3.5 points"));
        assert!(explain(Topic::Verdict, &settings).contains("3.5 points"));
        assert!(explain(Topic::MdeProjection, &settings).contains("K′ = 20"));
        let bootstrap = explain(Topic::BootstrapPercentile, &settings);
        assert!(bootstrap.contains("4,000 times (seed 7)"), "{bootstrap}");
    }
}
