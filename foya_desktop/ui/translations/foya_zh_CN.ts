<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>App</name>
    <message>
        <source>Foya cannot open its data folder ({folder}).</source>
        <translation>Foya 无法打开其数据文件夹（{folder}）。</translation>
    </message>
</context>
<context>
    <name>ErrorText</name>
    <message>
        <source>The session is busy; the message waits in the queue.</source>
        <translation>会话正忙，消息已在队列中等待。</translation>
    </message>
    <message>
        <source>The session is busy. Stop the running turn first.</source>
        <translation>会话正忙。请先停止正在运行的轮次。</translation>
    </message>
    <message>
        <source>Cannot branch inside the turn that is still running: branch after an earlier turn&apos;s reply, or wait until this one ends.</source>
        <translation>无法在仍在运行的轮次内创建分支：请在更早一轮的回复之后分支，或等待本轮结束。</translation>
    </message>
    <message>
        <source>Another Foya process (pid {pid}) is working in this session; wait until it finishes.</source>
        <translation>另一个 Foya 进程（pid {pid}）正在此会话中工作，请等待它完成。</translation>
    </message>
    <message>
        <source>This session has been deleted.</source>
        <translation>此会话已被删除。</translation>
    </message>
    <message>
        <source>The question was closed without an answer.</source>
        <translation>该问题未经回答即被关闭。</translation>
    </message>
    <message>
        <source>The model service refused the API key (missing, wrong or no access).</source>
        <translation>模型服务拒绝了 API 密钥（缺失、错误或无访问权限）。</translation>
    </message>
    <message>
        <source>The model service is limiting requests; try again in a moment.</source>
        <translation>模型服务正在限制请求频率，请稍后重试。</translation>
    </message>
    <message>
        <source>The model service is overloaded or failing; try again later.</source>
        <translation>模型服务过载或出现故障，请稍后重试。</translation>
    </message>
    <message>
        <source>The conversation is longer than the model&apos;s context window; compact it or start a branch.</source>
        <translation>对话长度超出了模型的上下文窗口，请压缩对话或新建分支。</translation>
    </message>
    <message>
        <source>Cannot reach the model service (refused, name or TLS failure).</source>
        <translation>无法连接模型服务（连接被拒绝、域名解析或 TLS 失败）。</translation>
    </message>
    <message>
        <source>The model service took too long to answer.</source>
        <translation>模型服务响应超时。</translation>
    </message>
    <message>
        <source>The reply stopped before it was complete.</source>
        <translation>回复在完成前中断了。</translation>
    </message>
    <message>
        <source>The model service sent something Foya cannot read.</source>
        <translation>模型服务返回了 Foya 无法解析的内容。</translation>
    </message>
    <message>
        <source>The model service reported an error while replying.</source>
        <translation>模型服务在回复过程中报告了错误。</translation>
    </message>
    <message>
        <source>The model service call failed.</source>
        <translation>调用模型服务失败。</translation>
    </message>
    <message>
        <source>This system has no secure keyring, so API keys cannot be stored.</source>
        <translation>此系统没有安全的密钥环，无法保存 API 密钥。</translation>
    </message>
    <message>
        <source>Another program kept Foya&apos;s database locked for too long.</source>
        <translation>另一个程序锁定 Foya 的数据库时间过长。</translation>
    </message>
    <message>
        <source>The disk is full; Foya could not save.</source>
        <translation>磁盘已满，Foya 无法保存。</translation>
    </message>
    <message>
        <source>Foya&apos;s data folder cannot be written.</source>
        <translation>无法写入 Foya 的数据文件夹。</translation>
    </message>
    <message>
        <source>Foya&apos;s database file is damaged; it is not written to.</source>
        <translation>Foya 的数据库文件已损坏，不会再写入。</translation>
    </message>
    <message>
        <source>The database was written by a newer Foya; update Foya to open it.</source>
        <translation>该数据库由更新版本的 Foya 写入，请升级 Foya 后再打开。</translation>
    </message>
    <message>
        <source>The database records a schema version Foya never wrote.</source>
        <translation>数据库记录的架构版本不是 Foya 写入过的版本。</translation>
    </message>
    <message>
        <source>Foya&apos;s data folder cannot be used.</source>
        <translation>无法使用 Foya 的数据文件夹。</translation>
    </message>
    <message>
        <source>The path is outside the session&apos;s project folder.</source>
        <translation>该路径位于会话的项目文件夹之外。</translation>
    </message>
    <message>
        <source>{summary} ({detail})</source>
        <translation>{summary}（{detail}）</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>Follow the system ({name})</source>
        <translation>跟随系统（{name}）</translation>
    </message>
    <message>
        <source>The new language is used the next time Foya starts.</source>
        <translation>新语言将在下次启动 Foya 时生效。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>New session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <source>Connections…</source>
        <translation>连接…</translation>
    </message>
    <message>
        <source>VPs…</source>
        <translation>VP…</translation>
    </message>
    <message>
        <source>Close window</source>
        <translation>关闭窗口</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>Connections</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>VPs</source>
        <translation>VP</translation>
    </message>
    <message>
        <source>Opening the session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>{title} — Foya</source>
        <translation>{title} — Foya</translation>
    </message>
    <message>
        <source>Untitled session</source>
        <translation>未命名会话</translation>
    </message>
    <message>
        <source>Saving the session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>Saving the VP</source>
        <translation>保存 VP</translation>
    </message>
    <message>
        <source>Duplicating</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Deleting the VP</source>
        <translation>删除 VP</translation>
    </message>
</context>
<context>
    <name>TaskRunner</name>
    <message>
        <source>{what} failed: {error}</source>
        <translation>{what}失败：{error}</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <source>Welcome to Foya</source>
        <translation>欢迎使用 Foya</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <source>Set up a model service…</source>
        <translation>配置模型服务…</translation>
    </message>
    <message>
        <source>Bind a session to a project folder and work with one or more agent personas. They read and edit files and run commands under the approval rules you set.</source>
        <translation>将会话绑定到项目文件夹，与一个或多个智能体角色协作。它们会在你设定的审批规则下读取和编辑文件、运行命令。</translation>
    </message>
    <message>
        <source>First, add a model service (OpenAI-compatible or Anthropic).</source>
        <translation>首先，添加一个模型服务（兼容 OpenAI 或 Anthropic）。</translation>
    </message>
    <message>
        <source>This system has no secure keyring, so API keys cannot be saved; Connections… lets you name an environment variable instead.</source>
        <translation>此系统没有安全的密钥环，无法保存 API 密钥；可在“连接…”中改为指定一个环境变量。</translation>
    </message>
    <message>
        <source>Connections…</source>
        <translation>连接…</translation>
    </message>
</context>
</TS>
